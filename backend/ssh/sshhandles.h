#pragma once

#include <libssh/libssh.h>

#include <memory>

namespace flashdeck::ssh {

// RAII for libssh's C handles (conventions §5.9). Explicit deleter structs rather than
// specialising std::default_delete, so each handle's teardown is written once, here.
struct SessionDeleter
{
    void operator()(ssh_session s) const
    {
        if (ssh_is_connected(s)) {
            ssh_disconnect(s);
        }
        ssh_free(s);
    }
};
struct ChannelDeleter
{
    void operator()(ssh_channel c) const
    {
        if (!ssh_channel_is_closed(c)) {
            ssh_channel_close(c);
        }
        ssh_channel_free(c);
    }
};
struct KeyDeleter
{
    void operator()(ssh_key k) const { ssh_key_free(k); }
};
struct EventDeleter
{
    void operator()(ssh_event e) const { ssh_event_free(e); }
};
struct CStringDeleter
{
    void operator()(char *s) const { ssh_string_free_char(s); }
};
struct HashDeleter
{
    void operator()(unsigned char *h) const { ssh_clean_pubkey_hash(&h); }
};
struct KnownHostsEntryDeleter
{
    void operator()(ssh_knownhosts_entry *e) const { ssh_knownhosts_entry_free(e); }
};

using SessionPtr = std::unique_ptr<ssh_session_struct, SessionDeleter>;
using ChannelPtr = std::unique_ptr<ssh_channel_struct, ChannelDeleter>;
using KeyPtr = std::unique_ptr<ssh_key_struct, KeyDeleter>;
using EventPtr = std::unique_ptr<ssh_event_struct, EventDeleter>;
using CStringPtr = std::unique_ptr<char, CStringDeleter>;
using HashPtr = std::unique_ptr<unsigned char, HashDeleter>;
using KnownHostsEntryPtr = std::unique_ptr<ssh_knownhosts_entry, KnownHostsEntryDeleter>;

} // namespace flashdeck::ssh
