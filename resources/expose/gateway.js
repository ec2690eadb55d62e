// Flashdeck's gateway script (njs): refuses a request whose messages name remote media the
// operator has not allowed, before the model server sees it. Written by `flashdeck expose`;
// change the options and expose again rather than editing this file.
//
// The rules are the Playground's (backend/chat/mediapolicy.cpp): a remote URL passes only when it
// is https on port 443, carries no user info, names its host (no address literal, nor a decimal,
// octal or hex form) and that host is on the allow-list ("*.example.org": its subdomains). data:
// URIs pass; client_max_body_size bounds them. Anything else (http:, file:, a bare path) is
// refused: SGLang opens local paths and fetches URLs from inside the host's network.
//
// Written for njs 0.7 (Debian 12) and later: var and function expressions only.

var MEDIA_ALLOW = /*@MEDIA_ALLOW@*/[];
// [first address as a number, prefix length, why]: the IPv4 ranges the Playground never fetches from.
var BLOCKED_V4 = /*@BLOCKED_V4@*/[];
var MEDIA_KEYS = ['image_url', 'video_url', 'audio_url'];

function refuse(r, status, message) {
    r.headersOut['Content-Type'] = 'application/json';
    var type = status === 403 ? 'media_refused' : 'invalid_request_error';
    r.return(status, JSON.stringify({error: {message: message, type: type, code: status}}) + '\n');
}

function shortened(text) {
    return text.length > 80 ? text.slice(0, 77) + '...' : text;
}

function blockedRange(host) {
    var m = /^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$/.exec(host);
    if (!m) {
        return null;
    }
    var n = 0;
    for (var i = 1; i <= 4; i++) {
        if (+m[i] > 255) {
            return null;
        }
        n = n * 256 + (+m[i]);
    }
    for (var j = 0; j < BLOCKED_V4.length; j++) {
        var size = Math.pow(2, 32 - BLOCKED_V4[j][1]);
        if (Math.floor(n / size) === Math.floor(BLOCKED_V4[j][0] / size)) {
            return BLOCKED_V4[j][2];
        }
    }
    return null;
}

function hostAllowed(host) {
    for (var i = 0; i < MEDIA_ALLOW.length; i++) {
        var entry = MEDIA_ALLOW[i];
        if (entry.slice(0, 2) === '*.') {
            var suffix = entry.slice(1);
            if (host.length > suffix.length && host.slice(host.length - suffix.length) === suffix) {
                return true;
            }
        } else if (host === entry) {
            return true;
        }
    }
    return false;
}

// Why a URL may not reach the server, or null when it may.
function urlProblem(url) {
    if (typeof url !== 'string') {
        return 'a media URL must be a string';
    }
    if (/^data:/i.test(url)) {
        return null;
    }
    if (/[\x00-\x20\x7f\\]/.test(url)) {
        return 'the media URL contains a backslash, a space or a control character';
    }
    var m = /^([a-z][a-z0-9+.-]*):\/\/([^\/?#]*)/i.exec(url);
    if (!m) {
        return 'only data: URIs and allowed https URLs are accepted as media, and "' + shortened(url)
            + '" is neither; send the image as a data: URI';
    }
    if (m[1].toLowerCase() !== 'https') {
        return 'only https media URLs are let through (this one is ' + m[1].toLowerCase() + ':)';
    }
    var host = m[2];
    if (host.indexOf('@') >= 0) {
        return 'the media URL carries a user name or password before "@"; such URLs are refused';
    }
    if (host.charAt(0) === '[') {
        return 'the media URL gives an address (' + host + ') instead of a host name; addresses are never let through';
    }
    var colon = host.lastIndexOf(':');
    if (colon >= 0) {
        var port = host.slice(colon + 1);
        host = host.slice(0, colon);
        if (port !== '' && port !== '443') {
            return 'only port 443 is let through (this URL asks for ' + port + ')';
        }
    }
    host = host.toLowerCase();
    if (host.slice(-1) === '.') {
        host = host.slice(0, -1);
    }
    if (host === '') {
        return 'the media URL names no host';
    }
    if (/^(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+))*$/.test(host)) {
        var range = blockedRange(host);
        return 'the media URL gives an address (' + host + (range ? ', ' + range : '')
            + ') instead of a host name; addresses are never let through';
    }
    if (!/^[a-z0-9.-]+$/.test(host)) {
        return 'the media URL\'s host must be written in ASCII (the xn-- form of an international name)';
    }
    if (!hostAllowed(host)) {
        return host + ' is not on this gateway\'s allowed media hosts; ask its operator to allow it, '
            + 'or send the image as a data: URI';
    }
    return null;
}

// Why the body's messages may not reach the server, or null when they may.
function messagesProblem(doc) {
    if (doc === null || typeof doc !== 'object' || !Array.isArray(doc.messages)) {
        return null;
    }
    for (var i = 0; i < doc.messages.length; i++) {
        var content = doc.messages[i] !== null && typeof doc.messages[i] === 'object' ? doc.messages[i].content : null;
        if (!Array.isArray(content)) {
            continue;
        }
        for (var j = 0; j < content.length; j++) {
            var part = content[j];
            if (part === null || typeof part !== 'object') {
                continue;
            }
            for (var k = 0; k < MEDIA_KEYS.length; k++) {
                var value = part[MEDIA_KEYS[k]];
                if (value === undefined) {
                    continue;
                }
                var url = value !== null && typeof value === 'object' ? value.url : value;
                var problem = urlProblem(url);
                if (problem) {
                    return 'refused by the gateway: messages[' + i + '].content[' + j + '].' + MEDIA_KEYS[k] + ': '
                        + problem + '.';
                }
            }
        }
    }
    return null;
}

function check(r) {
    var body;
    try {
        body = r.requestText;
    } catch (e) {
        // A body njs cannot see (written to a file) is never passed unchecked.
        refuse(r, 413, 'The request is larger than this gateway can check.');
        return;
    }
    if (body) {
        var doc;
        try {
            doc = JSON.parse(body);
        } catch (e) {
            refuse(r, 400, 'The request body is not JSON the gateway can read (' + e.message + ').');
            return;
        }
        var problem = messagesProblem(doc);
        if (problem) {
            refuse(r, 403, problem.charAt(0).toUpperCase() + problem.slice(1));
            return;
        }
    }
    r.internalRedirect('@flashdeck_server');
}

export default {check: check, urlProblem: urlProblem};
