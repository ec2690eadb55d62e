<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AddHostDialog</name>
    <message>
        <location filename="../../ui/dialogs/addhostdialog.cpp" line="+25"/>
        <location line="+98"/>
        <source>Add host</source>
        <translation>添加主机</translation>
    </message>
    <message>
        <location line="-73"/>
        <source>No hosts in %1</source>
        <translation>%1 中没有主机</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Choose a host…</source>
        <translation>选择主机…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Import from ~/.ssh/config:</source>
        <translation>从 ~/.ssh/config 导入：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>b300-a</source>
        <translation>b300-a</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>gpu1.example.com or an alias from ~/.ssh/config</source>
        <translation>gpu1.example.com 或 ~/.ssh/config 中的别名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>from ~/.ssh/config, else your user name</source>
        <translation>取自 ~/.ssh/config，否则为你的用户名</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>default (22)</source>
        <translation>默认（22）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>ssh-agent, then ~/.ssh/id_*</source>
        <translation>ssh-agent，然后 ~/.ssh/id_*</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Private key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>Detect</source>
        <translation>检测</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NVIDIA</source>
        <translation>NVIDIA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>AMD</source>
        <translation>AMD</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Address:</source>
        <translation>地址：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User:</source>
        <translation>用户：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Identity file:</source>
        <translation>身份文件：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU vendor:</source>
        <translation>GPU 厂商：</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Flashdeck asks you to confirm the host key on first connection. No password or passphrase is stored.</source>
        <translation>首次连接时 Flashdeck 会请你确认主机密钥。不保存任何密码或口令。</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>A name and an address are needed.</source>
        <translation>需要填写名称和地址。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A host named &quot;%1&quot; already exists.</source>
        <translation>已存在名为“%1”的主机。</translation>
    </message>
</context>
<context>
    <name>Chat</name>
    <message>
        <location filename="../../backend/chat/chatcall.cpp" line="+103"/>
        <source> The server said: &quot;%1&quot;.</source>
        <translation> 服务器返回：“%1”。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server refused the API key (HTTP %1). The key Flashdeck holds for this deployment is not the one the server was started with (--api-key): store the right one in the keyring, or redeploy.%2</source>
        <translation>服务器拒绝了 API 密钥（HTTP %1）。Flashdeck 为此部署保存的密钥不是服务器启动时使用的密钥（--api-key）：请将正确的密钥存入密钥环，或重新部署。%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server rejected the request (HTTP %1).%2 Check the parameters and the image.</source>
        <translation>服务器拒绝了请求（HTTP %1）。%2 请检查参数和图片。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server has no /v1/chat/completions (HTTP 404): the port is not an SGLang server&apos;s.%1</source>
        <translation>服务器没有 /v1/chat/completions（HTTP 404）：该端口不是 SGLang 服务器。%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server is not ready (HTTP 503): it is still loading, or is shutting down. Watch the Logs page for &quot;The server is fired up and ready to roll!&quot;.%1</source>
        <translation>服务器尚未就绪（HTTP 503）：仍在加载或正在关闭。请在“日志”页等待“The server is fired up and ready to roll!”。%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server answered HTTP %1.%2 See the Logs page for what it logged.</source>
        <translation>服务器返回 HTTP %1。%2 请在“日志”页查看它记录的内容。</translation>
    </message>
    <message>
        <location line="-105"/>
        <source>The server answered with &quot;%1&quot;, not an SGLang answer (text/event-stream or application/json): another program is listening on that port. Check the deployment&apos;s port.</source>
        <translation>服务器返回的是“%1”，不是 SGLang 的回答（text/event-stream 或 application/json）：该端口上监听的是其他程序。请检查部署的端口。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No complete answer within %1 s (the time limit)%2.</source>
        <translation>在 %1 秒内（时间上限）没有得到完整回答%2。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; the partial answer is kept</source>
        <translation>；已保留部分回答</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server stopped the answer with an error: &quot;%1&quot;. What came before is kept.</source>
        <translation>服务器以错误结束了回答：“%1”。之前的内容已保留。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>no byte came for %1 minutes</source>
        <translation>%1 分钟内没有收到任何字节</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The connection to the server broke mid-answer (%1); the partial answer is kept. Is the server still running? See the Fleet and Logs pages.</source>
        <translation>回答途中与服务器的连接断开（%1）；已保留部分回答。服务器是否仍在运行？请查看“机群”和“日志”页。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No answer from the server (%1). Is it running on the host? See the Fleet and Logs pages.</source>
        <translation>服务器没有回应（%1）。它是否在主机上运行？请查看“机群”和“日志”页。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The stream ended before the server&apos;s [DONE] (the server restarted or closed the connection); the partial answer is kept.</source>
        <translation>数据流在服务器的 [DONE] 之前结束（服务器重启或关闭了连接）；已保留部分回答。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>No answer from the server (HTTP %1 with an empty or unreadable body). Is an SGLang server on that port? See the Fleet and Logs pages.</source>
        <translation>服务器没有回应（HTTP %1，正文为空或无法读取）。该端口上是 SGLang 服务器吗？请查看“机群”和“日志”页。</translation>
    </message>
    <message>
        <location filename="../../backend/chat/chatclient.cpp" line="+39"/>
        <source>Could not reach the server&apos;s port %1 on the host: %2</source>
        <translation>无法连接主机上服务器的端口 %1：%2</translation>
    </message>
    <message>
        <location filename="../../backend/chat/chatstream.cpp" line="+144"/>
        <source>the answer is larger than %1 MiB; it was not read</source>
        <translation>回答大于 %1 MiB，未读取</translation>
    </message>
    <message>
        <location filename="../../backend/chat/chattarget.cpp" line="+16"/>
        <source>Flashdeck has not deployed to %1, so it does not know its server. Deploy first, or give the server&apos;s port on the host (--port).</source>
        <translation>Flashdeck 尚未部署到 %1，因此不知道它的服务器。请先部署，或给出服务器在主机上的端口（--port）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> Give the server&apos;s port on the host (--port) instead.</source>
        <translation> 或者改为指定主机上服务器的端口（--port）。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>%1 was deployed with profile &quot;%2&quot;, which this Flashdeck does not know.</source>
        <translation>%1 以配置“%2”部署，此 Flashdeck 不认识该配置。</translation>
    </message>
    <message>
        <location filename="../../backend/chat/imageprobe.cpp" line="+31"/>
        <source>The file starts like a %1 image but its header is cut or damaged. Open it in an image viewer and save it again.</source>
        <translation>该文件开头像 %1 图片，但文件头被截断或损坏。请用看图软件打开后重新保存。</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>This is not a PNG, JPEG or WebP image (by its content, whatever its name says). Convert it to one of those first.</source>
        <translation>这不是 PNG、JPEG 或 WebP 图片（按内容判断，与文件名无关）。请先转换为其中一种格式。</translation>
    </message>
    <message>
        <location filename="../../backend/chat/loadtest.cpp" line="+119"/>
        <source>Stopped after %1 requests in a row were refused with HTTP 401 (%2): the API key is wrong for this server. Check the deployment&apos;s key (the keyring, $SGLANG_API_KEY, or the server&apos;s --api-key).</source>
        <translation>连续 %1 个请求被 HTTP 401 拒绝（%2）后已停止：API 密钥与此服务器不符。请检查部署的密钥（密钥环、$SGLANG_API_KEY 或服务器的 --api-key）。</translation>
    </message>
    <message>
        <location line="+189"/>
        <source>%1 of %2 replies were shorter than the %3 tokens asked: the server may ignore ignore_eos, so these figures are not at the asked output length.</source>
        <translation>%2 个回答中有 %1 个短于要求的 %3 个 token：服务器可能忽略了 ignore_eos，因此这些数字并非按要求的输出长度测得。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>tokens/s counts, on this side, the completion tokens of the finished requests over the wall time; the server&apos;s figure is SGLang&apos;s own generation throughput (every request it decodes, averaged while the test ran).</source>
        <translation>tokens/s 是在本机一侧统计的：已完成请求的补全 token 数除以实际耗时；服务器的数字是 SGLang 自己的生成吞吐（测试期间它解码的所有请求的平均值）。</translation>
    </message>
    <message>
        <location filename="../../backend/chat/mediapolicy.cpp" line="+71"/>
        <source>not an address</source>
        <translation>不是地址</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>not global unicast IPv6</source>
        <translation>不是全局单播 IPv6 地址</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>The URL contains a backslash, a space or a control character; copy it again from the browser&apos;s address bar.</source>
        <translation>URL 含有反斜杠、空格或控制字符；请从浏览器地址栏重新复制。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>That is not a valid URL; an image URL looks like https://images.example.org/cat.png.</source>
        <translation>这不是有效的 URL；图片 URL 形如 https://images.example.org/cat.png。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Only https image URLs are fetched (this one is %1:). Download the image and attach the file instead.</source>
        <translation>只获取 https 图片 URL（此 URL 为 %1:）。请下载图片后以文件形式附加。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The URL carries a user name or password before &apos;@&apos;; such URLs are refused (they hide the real host). Remove that part.</source>
        <translation>URL 在“@”前带有用户名或密码；这类 URL 会被拒绝（它们隐藏了真实主机）。请删除这部分。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Only port 443 is fetched (this URL asks for %1).</source>
        <translation>只获取 443 端口（此 URL 要求 %1）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The URL names no host.</source>
        <translation>URL 中没有主机名。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The URL gives an address (%1) instead of a host name; addresses are never fetched. Use the image&apos;s https://name/… URL.</source>
        <translation>URL 给出的是地址（%1）而不是主机名；从不按地址获取。请使用图片的 https://名称/… URL。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No image host is allowed yet. Add %1 under Settings → Playground → Allowed image hosts, or attach the file instead.</source>
        <translation>尚未允许任何图片主机。请在“设置 → 调试台 → 允许的图片主机”中添加 %1，或改为附加文件。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 is not on the allowed image hosts (Settings → Playground). Add it there if you trust it, or attach the file instead.</source>
        <translation>%1 不在允许的图片主机中（设置 → 调试台）。如果信任它，请在那里添加，或改为附加文件。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The image host resolves to %1, which is %2; Flashdeck does not fetch from such addresses.</source>
        <translation>图片主机解析为 %1，属于%2；Flashdeck 不从这类地址获取。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The image is %1 MB; the limit is %2 MB (Settings → Playground).</source>
        <translation>图片大小为 %1 MB；上限为 %2 MB（设置 → 调试台）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The image says it is %1 × %2 pixels; it cannot be sent.</source>
        <translation>图片声明其尺寸为 %1 × %2 像素；无法发送。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The image is %1 × %2 pixels (%3 MP); the limit is %4 MP. Scale it down first.</source>
        <translation>图片为 %1 × %2 像素（%3 MP）；上限为 %4 MP。请先缩小。</translation>
    </message>
</context>
<context>
    <name>ChatSession</name>
    <message>
        <location filename="../../backend/chat/chatsession.cpp" line="+115"/>
        <source>Choose a host with a deployment first.</source>
        <translation>请先选择一台已部署的主机。</translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message>
        <location filename="../../backend/cli/chatcommand.cpp" line="+54"/>
        <source>The user message.</source>
        <translation>用户消息。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A system prompt.</source>
        <translation>系统提示词。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Ask for no reasoning (chat_template_kwargs thinking_mode=disabled).</source>
        <translation>要求不进行推理（chat_template_kwargs thinking_mode=disabled）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attach a PNG, JPEG or WebP file (repeatable).</source>
        <translation>附加 PNG、JPEG 或 WebP 文件（可重复）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sampling temperature (default 1.0).</source>
        <translation>采样温度（默认 1.0）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nucleus sampling (default 0.95).</source>
        <translation>核采样（默认 0.95）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Longest answer in tokens.</source>
        <translation>回答的最大 token 数。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sampling seed.</source>
        <translation>采样种子。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A stop sequence (repeatable).</source>
        <translation>停止序列（可重复）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <location filename="../../backend/cli/loadtestcommand.cpp" line="+64"/>
        <location filename="../../backend/cli/tunnelcommand.cpp" line="+64"/>
        <source>The server&apos;s port on the host (default: the deployment&apos;s).</source>
        <translation>服务器在主机上的端口（默认：部署记录的端口）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../../backend/cli/hostscommand.cpp" line="+119"/>
        <location filename="../../backend/cli/logscommand.cpp" line="+321"/>
        <source>One JSON object per line.</source>
        <translation>每行一个 JSON 对象。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Give up when the answer is not complete after SECONDS (the partial answer is kept; exit 1). Default: no limit.</source>
        <translation>在 SECONDS 秒后回答仍未完成则放弃（保留部分回答；退出码 1）。默认：不限时。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>--temperature takes a number from 0 to 2.
</source>
        <translation>--temperature 取 0 到 2 之间的数字。
</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>--top-p takes a number above 0, at most 1.
</source>
        <translation>--top-p 取大于 0、至多为 1 的数字。
</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>--max-tokens takes a positive number.
</source>
        <translation>--max-tokens 取正数。
</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>--timeout takes a number of seconds above 0 (at most a day).
</source>
        <translation>--timeout 取大于 0 的秒数（最多一天）。
</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>--seed takes a whole number.
</source>
        <translation>--seed 取整数。
</translation>
    </message>
    <message>
        <location line="+9"/>
        <location filename="../../backend/cli/loadtestcommand.cpp" line="+69"/>
        <source>--port takes a port number.
</source>
        <translation>--port 取端口号。
</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>cannot read %1: %2.
</source>
        <translation>无法读取 %1：%2。
</translation>
    </message>
    <message>
        <location line="+157"/>
        <location filename="../../backend/cli/clisession.cpp" line="+61"/>
        <location filename="../../backend/cli/deployrequest.cpp" line="+227"/>
        <location filename="../../backend/cli/hostscommand.cpp" line="+237"/>
        <location filename="../../backend/cli/statuscommand.cpp" line="+270"/>
        <location filename="../../backend/cli/upgradecommand.cpp" line="+297"/>
        <source>No host named &quot;%1&quot; in the inventory (see &apos;flashdeck hosts list&apos;).
</source>
        <translation>主机清单中没有名为“%1”的主机（见“flashdeck hosts list”）。
</translation>
    </message>
    <message>
        <location line="-93"/>
        <source>The server refused the API key (HTTP %1). The key in $SGLANG_API_KEY is not the one the server was started with (--api-key): set it to that key, or unset it to use the key Flashdeck holds for the deployment.</source>
        <translation>服务器拒绝了 API 密钥（HTTP %1）。$SGLANG_API_KEY 中的密钥不是服务器启动时使用的密钥（--api-key）：请将其设为该密钥，或取消设置以使用 Flashdeck 为此部署保存的密钥。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>thinking was switched off, yet the server returned reasoning.
</source>
        <translation>思考已关闭，服务器却返回了推理内容。
</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>— first token %1 ms · %2 tokens/s%3 · %4 prompt + %5 completion tokens%6 · %7%8
</source>
        <translation>— 首个 token %1 ms · %2 tokens/s%3 · 提示 %4 + 补全 %5 个 token%6 · %7%8
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/cliapikey.cpp" line="+35"/>
        <source>this machine has no keyring (%1)</source>
        <translation>本机没有密钥环（%1）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the keyring holds none for %1</source>
        <translation>密钥环中没有 %1 的密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the keyring said: %1</source>
        <translation>密钥环返回：%1</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>no API key for %1: %2, and it could not be read from the server: %3 Or set SGLANG_API_KEY to the key the server was started with.
</source>
        <translation>%1 没有 API 密钥：%2，也无法从服务器读取：%3 也可以把 SGLANG_API_KEY 设为服务器启动时使用的密钥。
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/cliprompts.cpp" line="+20"/>
        <source>Passphrase for %1: </source>
        <translation>%1 的口令：</translation>
    </message>
    <message>
        <location filename="../../backend/cli/democommand.cpp" line="+41"/>
        <source>Simulated hosts on loopback (nothing here is a real GPU server):
</source>
        <translation>回环地址上的模拟主机（这里没有真实的 GPU 服务器）：
</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>scenario %1, %2@127.0.0.1:%3
</source>
        <translation>场景 %1，%2@127.0.0.1:%3
</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Connect with OpenSSH:
</source>
        <translation>用 OpenSSH 连接：
</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open the window with &apos;flashdeck&apos;; stop the demo with &apos;flashdeck demo stop&apos;.
</source>
        <translation>用“flashdeck”打开窗口；用“flashdeck demo stop”停止演示。
</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Scenario of host &apos;demo&apos; (default b300x4).</source>
        <translation>主机“demo”的场景（默认 b300x4）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Scale every simulated duration (default 0.5).</source>
        <translation>缩放所有模拟耗时（默认 0.5）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../../backend/cli/exposerequest.cpp" line="+65"/>
        <location filename="../../backend/cli/licensecommand.cpp" line="+90"/>
        <location filename="../../backend/cli/pinscommand.cpp" line="+39"/>
        <location filename="../../backend/cli/prunecommand.cpp" line="+217"/>
        <location filename="../../backend/cli/recipescommand.cpp" line="+151"/>
        <location filename="../../backend/cli/undeploycommand.cpp" line="+132"/>
        <location filename="../../backend/cli/unexposecommand.cpp" line="+94"/>
        <source>Print JSON.</source>
        <translation>输出 JSON。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>How many hosts run the scenario: demo, demo-2, … (default 1; at most 8).</source>
        <translation>运行该场景的主机数：demo、demo-2、…（默认 1，最多 8）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>expected start, status or stop.</source>
        <translation>应为 start、status 或 stop。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>--time-factor must be a positive number.</source>
        <translation>--time-factor 必须是正数。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--hosts takes a number from 1 to 8.</source>
        <translation>--hosts 取 1 到 8 之间的数字。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No demo is running. Start one with &apos;flashdeck demo start&apos;.
</source>
        <translation>没有正在运行的演示。用“flashdeck demo start”启动一个。
</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Demo stopped; its hosts removed from the inventory.
</source>
        <translation>演示已停止；其主机已从主机清单中移除。
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/deployrequest.cpp" line="-187"/>
        <source>Cannot read standard input.</source>
        <translation>无法读取标准输入。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cannot read the launch command %1: %2</source>
        <translation>无法读取启动命令 %1：%2</translation>
    </message>
    <message>
        <location line="+14"/>
        <location filename="../../backend/cli/runbookcommand.cpp" line="+42"/>
        <source>Recipe profile.</source>
        <translation>配方配置。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Acknowledge the model licence for this use.</source>
        <translation>确认此用途下的模型许可证。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Continue an earlier deployment.</source>
        <translation>继续之前的部署。</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../../backend/cli/upgradecommand.cpp" line="-209"/>
        <source>One JSON object per step transition.</source>
        <translation>每次步骤状态变化输出一个 JSON 对象。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>At most this many seconds for the server to be ready (default: no limit; the step waits as long as the start makes progress).</source>
        <translation>等待服务器就绪的最长秒数（默认：不限；只要启动仍有进展，该步骤就一直等待）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Fail the Ready step after this many seconds without progress: no weights arriving, no kernel compiled, no log line (default 900).</source>
        <translation>连续这么多秒没有进展（没有权重到达、没有编译内核、没有日志行）则判定“就绪”步骤失败（默认 900）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Fail a GPU step when nvidia-smi or amd-smi on the host takes longer than this (default 30).</source>
        <translation>主机上的 nvidia-smi 或 amd-smi 运行超过此秒数时，GPU 步骤失败（默认 30）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Turn on HiCache with GB of host memory per rank.</source>
        <translation>开启 HiCache，每个 rank 使用 GB 的主机内存。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Extra SGLang flags (the Low-Latency profile needs them).</source>
        <translation>额外的 SGLang 参数（低延迟配置需要）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Load the weights from this folder on the host instead of the Hub; it is verified first.</source>
        <translation>从主机上的此目录加载权重而不是从 Hub 下载；会先进行校验。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>hub (default), offline (an hf download folder, the default with --model-dir) or modelscope (a ModelScope download).</source>
        <translation>hub（默认）、offline（hf download 下载的目录，使用 --model-dir 时的默认值）或 modelscope（ModelScope 下载）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Also compare the sha256 of every shard (reads the whole checkpoint on the host).</source>
        <translation>同时比较每个分片的 sha256（会在主机上读取整个检查点）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Run this image instead of the profile&apos;s (pinned to its digest like the recipe&apos;s); the AMD profile needs it.</source>
        <translation>运行此镜像而不是配置中的镜像（像配方的镜像一样固定到 digest）；AMD 配置需要它。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The GPUs to run on, one per TP rank (services in order), instead of the profile&apos;s 0,1,2,3: when those are busy.</source>
        <translation>运行所用的 GPU，每个 TP rank 一个（按服务顺序），代替配置中的 0,1,2,3：在这些 GPU 被占用时使用。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The port the server listens on, on the host&apos;s loopback (the router&apos;s, for a profile with one), instead of the profile&apos;s 30000; recorded, so chat, status and the runbook use it.</source>
        <translation>服务器在主机回环地址上监听的端口（有 Router 的配置则为 Router 的端口），代替配置中的 30000；会被记录，chat、status 和 runbook 都会使用。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Run exactly this image digest (on the host already, or in the registry) instead of what the tag names today.</source>
        <translation>精确运行此镜像 digest（已在主机上或在镜像仓库中），而不是该标签今天指向的镜像。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Run exactly this model commit (40 hex digits) instead of the recipe&apos;s revision.</source>
        <translation>精确运行此模型 commit（40 位十六进制），而不是配方中的 revision。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Deploy exactly what a pins file says (&apos;flashdeck pins lock&apos; writes one): image, digest, model commit and profile.</source>
        <translation>精确部署固定文件所写的内容（由“flashdeck pins lock”生成）：镜像、digest、模型 commit 和配置。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Launch SGLang&apos;s configuration generator&apos;s command from FILE (&apos;-&apos;: standard input) instead of the recipe&apos;s B300 flags: python3 -m sglang.launch_server …, sglang serve … or docker run … IMAGE …. Its flags are kept as given; Flashdeck sets the model, its pinned revision, the port, the key and --enable-metrics. Needed for AMD, B200, GB200 and H200 hosts.</source>
        <translation>从 FILE（“-”：标准输入）读取 SGLang 配置生成器的命令来启动，而不是配方中的 B300 参数：python3 -m sglang.launch_server …、sglang serve … 或 docker run … IMAGE …。其参数按原样保留；Flashdeck 设置模型、其固定的修订版本、端口、密钥和 --enable-metrics。AMD、B200、GB200 和 H200 主机需要此项。</translation>
    </message>
    <message>
        <location line="+205"/>
        <source>--probe-timeout takes seconds, from 1 to 3600.</source>
        <translation>--probe-timeout 取秒数，1 到 3600。</translation>
    </message>
    <message>
        <location line="+97"/>
        <location filename="../../backend/cli/exposerequest.cpp" line="+169"/>
        <location filename="../../backend/cli/pinscommand.cpp" line="+13"/>
        <location filename="../../backend/cli/prunecommand.cpp" line="+6"/>
        <location filename="../../backend/cli/runbookcommand.cpp" line="+7"/>
        <location filename="../../backend/cli/undeploycommand.cpp" line="+4"/>
        <location filename="../../backend/cli/unexposecommand.cpp" line="+4"/>
        <location filename="../../backend/cli/upgradecommand.cpp" line="+239"/>
        <source>needs HOST.</source>
        <translation>需要 HOST。</translation>
    </message>
    <message>
        <location line="-261"/>
        <location filename="../../backend/cli/upgradecommand.cpp" line="-185"/>
        <source>--pins gives the digest and the commit: leave out --image-digest and --model-revision.</source>
        <translation>--pins 已给出 digest 和 commit：请去掉 --image-digest 和 --model-revision。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the pins file is for profile %1, not %2.</source>
        <translation>该固定文件属于配置 %1，而不是 %2。</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>no profile &quot;%1&quot; (see &apos;flashdeck recipes list&apos;).</source>
        <translation>没有配置“%1”（见“flashdeck recipes list”）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>--port takes a port number from 1 to 65535, not &quot;%1&quot;.</source>
        <translation>--port 取 1 到 65535 之间的端口号，而不是“%1”。</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>%1 (The profile is %2, the default: for other GPUs give --profile; &apos;flashdeck recipes list&apos; has them.)</source>
        <translation>%1（当前方案为默认的 %2：其他 GPU 请用 --profile 指定；&apos;flashdeck recipes list&apos; 列出全部方案。）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>--image %1 and the command&apos;s image %2 differ: give one.</source>
        <translation>--image %1 与命令中的镜像 %2 不一致：只给出一个。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 Confirm it with --image %2, or give your own ROCm build of SGLang that serves %3.</source>
        <translation>%1 请用 --image %2 确认，或提供你自己构建的、可服务 %3 的 ROCm 版 SGLang。</translation>
    </message>
    <message>
        <location line="+95"/>
        <source>--accept-license takes %1.</source>
        <translation>--accept-license 取值为 %1。</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>%1 at %2, summary sha256 %3</source>
        <translation>%1，时间 %2，摘要 sha256 %3</translation>
    </message>
    <message>
        <location line="-125"/>
        <location filename="../../backend/cli/upgradecommand.cpp" line="+15"/>
        <source>--ready-timeout takes seconds (0: no limit).</source>
        <translation>--ready-timeout 取秒数（0：不限）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <location filename="../../backend/cli/upgradecommand.cpp" line="+5"/>
        <source>--stall-timeout takes seconds, from 1 to 86400.</source>
        <translation>--stall-timeout 取秒数，1 到 86400。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The command&apos;s image digest %1 is not sha256: and 64 hex digits.</source>
        <translation>命令中的镜像摘要 %1 不是 sha256: 加 64 位十六进制数字。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>--model-source takes hub, offline or modelscope.</source>
        <translation>--model-source 取值为 hub、offline 或 modelscope。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>--model-source %1 needs --model-dir, the folder on the host.</source>
        <translation>--model-source %1 需要 --model-dir，即主机上的目录。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--model-dir is a folder on the host: use it with --model-source offline or modelscope.</source>
        <translation>--model-dir 是主机上的目录：请与 --model-source offline 或 modelscope 一起使用。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>--verify-checksums checks a folder on the host: use it with --model-dir.</source>
        <translation>--verify-checksums 校验主机上的目录：请与 --model-dir 一起使用。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 needs --operator-flags: %2</source>
        <translation>%1 需要 --operator-flags：%2</translation>
    </message>
    <message>
        <location filename="../../backend/cli/deploycommand.cpp" line="+138"/>
        <source>Resuming: each step checks what is already there; nothing is pulled or started twice.
</source>
        <translation>继续：每个步骤都会检查已有内容；不会重复拉取或启动。
</translation>
    </message>
    <message>
        <location line="-61"/>
        <location filename="../../backend/cli/upgradecommand.cpp" line="+231"/>
        <source>stopped without waiting; run it again with --resume.
</source>
        <translation>未等待即停止；请加 --resume 再次运行。
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cancelling: stopping what runs and checking what is left on the host (Ctrl+C again to quit at once)…
</source>
        <translation>正在取消：停止正在运行的操作，并检查留在主机上的内容（再按一次 Ctrl+C 立即退出）…
</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Recorded: %1 acknowledges the %2 for %3 use on %4 (summary %5…; &apos;flashdeck license&apos; shows it).
</source>
        <translation>已记录：%1 确认 %2 用于 %4 上的%3用途（摘要 %5…；“flashdeck license”可查看）。
</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Deployed. Journal and manifest: %1
</source>
        <translation>已部署。日志记录和清单：%1
</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped at the failed step. Journal: %1
</source>
        <translation>已在失败的步骤处停止。日志记录：%1
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/hostscommand.cpp" line="-333"/>
        <source>Settings, inventory and data under DIR.</source>
        <translation>设置、主机清单和数据存放在 DIR 下。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Also write the log to standard error.</source>
        <translation>同时将日志写到标准错误。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Private key file.</source>
        <translation>私钥文件。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>known_hosts file.</source>
        <translation>known_hosts 文件。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>nvidia or amd (a hint).</source>
        <translation>nvidia 或 amd（提示）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Free text.</source>
        <translation>自由文本。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&apos;hosts add&apos; needs NAME and --ssh [USER@]HOST[:PORT].</source>
        <translation>“hosts add”需要 NAME 和 --ssh [USER@]HOST[:PORT]。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>--vendor must be nvidia or amd.</source>
        <translation>--vendor 必须是 nvidia 或 amd。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Added %1 (%2). Check it with: flashdeck hosts check %1
</source>
        <translation>已添加 %1（%2）。请用以下命令检查：flashdeck hosts check %1
</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&apos;hosts list&apos; takes no arguments.</source>
        <translation>“hosts list”不接受参数。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>No hosts yet. Add one with: flashdeck hosts add NAME --ssh [USER@]HOST[:PORT]
</source>
        <translation>还没有主机。用以下命令添加：flashdeck hosts add NAME --ssh [USER@]HOST[:PORT]
</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>&apos;hosts remove&apos; needs NAME.</source>
        <translation>“hosts remove”需要 NAME。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Removed %1. Its known_hosts entry was kept.
</source>
        <translation>已移除 %1。其 known_hosts 条目已保留。
</translation>
    </message>
    <message>
        <location line="+165"/>
        <source>Trust an unknown host key (never a changed one).</source>
        <translation>信任未知的主机密钥（绝不信任已变化的密钥）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Connect timeout in seconds.</source>
        <translation>连接超时（秒）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&apos;hosts check&apos; needs NAME.</source>
        <translation>“hosts check”需要 NAME。</translation>
    </message>
    <message>
        <location line="-142"/>
        <source>New host key for %1: %2 %3 (accepted)
</source>
        <translation>%1 的新主机密钥：%2 %3（已接受）
</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New host key for %1: %2 %3
</source>
        <translation>%1 的新主机密钥：%2 %3
</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>&apos;uname -a&apos; exited with %1: %2. Check the account&apos;s login shell on the host (getent passwd %3) and its startup files.</source>
        <translation>“uname -a”以 %1 退出：%2。请检查该账户在主机上的登录 shell（getent passwd %3）及其启动文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+12"/>
        <source>it printed nothing</source>
        <translation>没有任何输出</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>The login shell on the host gave no usable answer to &apos;uname -a&apos; (%1). Flashdeck runs its commands with /bin/sh through the login shell: check the account&apos;s shell (getent passwd %2) and its startup files.</source>
        <translation>主机上的登录 shell 对“uname -a”没有给出可用的回答（%1）。Flashdeck 通过登录 shell 用 /bin/sh 运行命令：请检查该账户的 shell（getent passwd %2）及其启动文件。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Host key: %1 %2 (%3)
</source>
        <translation>主机密钥：%1 %2（%3）
</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Authenticated: %1
</source>
        <translation>已认证：%1
</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cipher: %1 (key exchange %2)
</source>
        <translation>加密算法：%1（密钥交换 %2）
</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Run again with --accept-new-host-key once you have compared the fingerprint.
</source>
        <translation>比对指纹后，请加 --accept-new-host-key 再次运行。
</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>which hosts command?</source>
        <translation>哪个 hosts 命令？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown command &quot;%1&quot;.</source>
        <translation>未知命令“%1”。</translation>
    </message>
    <message>
        <location filename="../../backend/cli/licensecommand.cpp" line="+4"/>
        <source>too many arguments.</source>
        <translation>参数过多。</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>%1 — Flashdeck&apos;s summary (not legal advice)

</source>
        <translation>%1 —— Flashdeck 的摘要（不构成法律意见）

</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Full licence: %1

Uses (flashdeck deploy HOST --accept-license USE):
</source>
        <translation>许可证全文：%1

用途（flashdeck deploy HOST --accept-license USE）：
</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>
Accepting also confirms:
</source>
        <translation>
接受即同时确认：
</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>
Summary sha256: %1
</source>
        <translation>
摘要 sha256：%1
</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: acknowledged for %2 use by %3 at %4 (%5).
</source>
        <translation>%1：已由 %3 于 %4 确认用于 %2 用途（%5）。
</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: no acknowledgement of this text yet.
</source>
        <translation>%1：尚未确认此文本。
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/loadtestcommand.cpp" line="-88"/>
        <source>Requests in flight.</source>
        <translation>同时进行的请求数。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Prompt length in tokens.</source>
        <translation>提示长度（token）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tokens generated per request.</source>
        <translation>每个请求生成的 token 数。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Seconds to keep starting requests.</source>
        <translation>持续发起请求的秒数。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The report as one JSON object.</source>
        <translation>以一个 JSON 对象输出报告。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write one row per request to FILE.</source>
        <translation>每个请求一行写入 FILE。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Requests without reasoning.</source>
        <translation>不进行推理的请求。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>takes a number from %1 to %2.
</source>
        <translation>取 %1 到 %2 之间的数字。
</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>%1 s · %2 in flight · %3 done · %4 failed · TTFT p50 %5 · %6 tokens/s · KV %7 · queue %8
</source>
        <translation>%1 秒 · 进行中 %2 · 完成 %3 · 失败 %4 · TTFT p50 %5 · %6 tokens/s · KV %7 · 队列 %8
</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>cannot write %1: %2.
</source>
        <translation>无法写入 %1：%2。
</translation>
    </message>
    <message>
        <location line="-32"/>
        <source>Load test: %1 in flight, prompts of %2 tokens, %3 tokens out, %4 s
</source>
        <translation>压测：同时 %1 个请求，提示 %2 个 token，输出 %3 个 token，%4 秒
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>  completed        %1 (%2 requests/s)
</source>
        <translation>  完成             %1（%2 请求/秒）
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/logscommand.cpp" line="-134"/>
        <source>%1 health and metrics polls folded (--polls shows them)</source>
        <translation>已折叠 %1 条健康与指标轮询（--polls 可显示）</translation>
    </message>
    <message>
        <location filename="../../backend/cli/exposerequest.cpp" line="-211"/>
        <source>A source network let in (repeat it).</source>
        <translation>放行的来源网络（可重复）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The host&apos;s address to listen on (default 0.0.0.0).</source>
        <translation>监听的主机地址（默认 0.0.0.0）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The port to listen on (default 8443).</source>
        <translation>监听的端口（默认 8443）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Requests per client address (default 10/s).</source>
        <translation>每个客户端地址的请求速率（默认 10/s）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Requests past the rate served at once (default 20).</source>
        <translation>超过速率后仍立即处理的请求数（默认 20）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Requests in flight (default 64).</source>
        <translation>同时处理的请求数（默认 64）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The largest request (default 32m).</source>
        <translation>单个请求的最大大小（默认 32m）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The longest pause between two reads from a client (default 60s).</source>
        <translation>两次读取客户端数据之间允许的最长间隔（默认 60s）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The longest wait for the server between two reads (default 600s: an answer without streaming can think for minutes).</source>
        <translation>两次读取服务器数据之间允许的最长等待（默认 600s：不流式输出的回答可能要思考几分钟）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An image host remote URLs may name (repeat it).</source>
        <translation>远程 URL 可使用的图片主机（可重复）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Make a certificate on the host (the default).</source>
        <translation>在主机上生成证书（默认）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your certificate (PEM).</source>
        <translation>你的证书（PEM）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Its private key (PEM, no passphrase).</source>
        <translation>证书的私钥（PEM，无口令）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Print what would be placed; change nothing.</source>
        <translation>输出将要部署的内容，不做任何更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Check the placed gateway from this machine.</source>
        <translation>从本机检查已部署的网关。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>With --check: reach the gateway here (a NAT, a tunnel).</source>
        <translation>与 --check 一起使用：从此处访问网关（NAT、隧道）。</translation>
    </message>
    <message>
        <location line="+92"/>
        <source>--self-signed and --tls-cert/--tls-key exclude each other: choose one.</source>
        <translation>--self-signed 与 --tls-cert/--tls-key 互斥：请选择其一。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>--tls-cert and --tls-key go together: the certificate and its key.</source>
        <translation>--tls-cert 与 --tls-key 需一起给出：证书及其私钥。</translation>
    </message>
    <message>
        <location line="+11"/>
        <location filename="../../backend/cli/logscommand.cpp" line="+31"/>
        <source>Cannot read %1: %2.
</source>
        <translation>无法读取 %1：%2。
</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>--connect takes ADDR:PORT, as 10.0.0.5:8443.</source>
        <translation>--connect 需要 ADDR:PORT，例如 10.0.0.5:8443。</translation>
    </message>
    <message>
        <location filename="../../backend/cli/logscommand.cpp" line="+86"/>
        <source>A saved SGLang log to classify.</source>
        <translation>要分类的已保存 SGLang 日志。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Keep printing new lines; survives reconnects and restarts.</source>
        <translation>持续输出新行；重连和重启后继续。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Start with the last N lines (default: all).</source>
        <translation>从最后 N 行开始（默认：全部）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Follow this container instead of the host&apos;s deployment.</source>
        <translation>跟踪此容器，而不是主机上的部署。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Only the lines a rule matches.</source>
        <translation>只显示规则匹配的行。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show Docker&apos;s time of each line (UTC).</source>
        <translation>显示 Docker 记录的每行时间（UTC）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show the health and metrics polls (folded: SGLang logs each one).</source>
        <translation>显示健康与指标轮询（默认折叠：SGLang 会记录每一次请求）。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>--tail needs a number of lines (0 or more).
</source>
        <translation>--tail 需要行数（0 或更多）。
</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>No host named &quot;%1&quot; in the inventory.
</source>
        <translation>主机清单中没有名为“%1”的主机。
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/pinscommand.cpp" line="-33"/>
        <source>--image-digest takes sha256: and 64 hex digits, not &quot;%1&quot; (&apos;flashdeck pins HOST&apos; prints a host&apos;s).</source>
        <translation>--image-digest 取 sha256: 加 64 位十六进制，而不是“%1”（“flashdeck pins HOST”会输出主机的 digest）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>--model-revision takes a full commit id (40 hex digits), not &quot;%1&quot; (&apos;flashdeck pins HOST&apos; prints a host&apos;s).</source>
        <translation>--model-revision 取完整的 commit id（40 位十六进制），而不是“%1”（“flashdeck pins HOST”会输出主机的 commit）。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>pins lock: write the pins to FILE.</source>
        <translation>pins lock：将固定信息写入 FILE。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>pins lock needs --output FILE.</source>
        <translation>pins lock 需要 --output FILE。</translation>
    </message>
    <message>
        <location line="+19"/>
        <location filename="../../backend/cli/runbookcommand.cpp" line="+23"/>
        <source>Cannot write %1: %2.
</source>
        <translation>无法写入 %1：%2。
</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pins of %1 written to %2.
</source>
        <translation>%1 的固定版本已写入 %2。
</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>launch command  SGLang&apos;s configuration generator&apos;s, as given:
</source>
        <translation>启动命令  SGLang 配置生成器的命令，按原样：
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/prometheuscommand.cpp" line="+33"/>
        <source>Could not write %1: %2
</source>
        <translation>无法写入 %1：%2
</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 written to %2.
</source>
        <translation>%1 已写入 %2。
</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Write to FILE (default: stdout).</source>
        <translation>写入 FILE（默认：标准输出）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>rules: the label that tells hosts apart (default: Settings → Fleet, else instance).</source>
        <translation>rules：区分主机的标签（默认：设置 → 机群，否则为 instance）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>targets: 127.0.0.1:PORT, for an agent on each host.</source>
        <translation>targets：127.0.0.1:PORT，供每台主机上的代理使用。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>needs rules or targets.</source>
        <translation>需要 rules 或 targets。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&quot;%1&quot; is not a Prometheus label name (letters, digits and _, not first a digit).
</source>
        <translation>“%1”不是 Prometheus 标签名（字母、数字和 _，不能以数字开头）。
</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The alerting rules</source>
        <translation>告警规则</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 deployment(s). </source>
        <translation>%1 个部署。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each target is 127.0.0.1:PORT: run an agent on each host (Prometheus in agent mode, or vmagent) with this file and remote-write to your Prometheus.</source>
        <translation>每个目标都是 127.0.0.1:PORT：在每台主机上运行一个代理（agent 模式的 Prometheus 或 vmagent），使用此文件并远程写入你的 Prometheus。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The servers listen on each host&apos;s loopback only: a central Prometheus reaches ADDRESS:PORT only once that port is opened to it alone (a firewall rule), else use --on-host with an agent on each host.</source>
        <translation>服务器只在各主机的回环地址上监听：中央 Prometheus 只有在该端口仅对它开放（防火墙规则）后才能访问 ADDRESS:PORT，否则请使用 --on-host 并在每台主机上运行代理。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>SGLang serves /metrics without the API key (its auth exempts /metrics); an older image that answers 401 needs the key as the scrape job&apos;s bearer token.
</source>
        <translation>SGLang 提供 /metrics 时不要求 API 密钥（其认证豁免 /metrics）；返回 401 的旧镜像需要把密钥作为抓取任务的 bearer token。
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The targets</source>
        <translation>抓取目标</translation>
    </message>
    <message>
        <location filename="../../backend/cli/prunecommand.cpp" line="-155"/>
        <source>no longer on the host</source>
        <translation>已不在主机上</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>an unfinished upgrade needs it (its rollback)</source>
        <translation>未完成的升级需要它（用于回滚）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the deployment runs it</source>
        <translation>部署正在运行它</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a container uses it</source>
        <translation>有容器在使用它</translation>
    </message>
    <message>
        <location line="+127"/>
        <source>Say what would go; remove nothing.</source>
        <translation>说明会删除什么；不删除任何东西。</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>would remove %1 (%2)
</source>
        <translation>将删除 %1（%2）
</translation>
    </message>
    <message>
        <location line="-104"/>
        <source>Flashdeck&apos;s gateway (flashdeck expose) runs it</source>
        <translation>Flashdeck 的网关（flashdeck expose）正在使用它</translation>
    </message>
    <message>
        <location line="+105"/>
        <source>removed %1 (%2)
</source>
        <translation>已删除 %1（%2）
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>kept %1: %2
</source>
        <translation>保留 %1：%2
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Flashdeck pulled no image on %1 that it could remove (it removes only images it pulled).
</source>
        <translation>Flashdeck 在 %1 上没有拉取过可删除的镜像（它只删除自己拉取的镜像）。
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Would free %1 on %2.
</source>
        <translation>将在 %2 上释放 %1。
</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Freed %1 on %2.
</source>
        <translation>已在 %2 上释放 %1。
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/recipescommand.cpp" line="-53"/>
        <source>yours to confirm or supply (deploy --image): %1
</source>
        <translation>需由你确认或提供（deploy --image）：%1
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>per GPU: %1
</source>
        <translation>每块 GPU：%1
</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>; the GPU list is yours to change (deploy --gpus) when those are busy
</source>
        <translation>；这些 GPU 被占用时，可自行修改 GPU 列表（deploy --gpus）
</translation>
    </message>
    <message>
        <location line="+14"/>
        <source> tokens expected</source>
        <translation> 个 token（预期）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no published expectation</source>
        <translation>无公布的预期值</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>expected list, or show ID.</source>
        <translation>应为 list 或 show ID。</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>No recipe or profile named &quot;%1&quot;. See &apos;flashdeck recipes list&apos;.
</source>
        <translation>没有名为“%1”的配方或配置。见“flashdeck recipes list”。
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/runbookcommand.cpp" line="-44"/>
        <source>The runbook leaves the gateway out.</source>
        <translation>运行手册未包含网关。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Write the script to FILE.</source>
        <translation>将脚本写入 FILE。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Runbook written to %1. Run it on the host with FLASHDECK_API_KEY set.
</source>
        <translation>runbook 已写入 %1。请在主机上设置 FLASHDECK_API_KEY 后运行。
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/statuscommand.cpp" line="-219"/>
        <source>HOST</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>STATE</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPUS</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CONTAINER</source>
        <translation>容器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HEALTH</source>
        <translation>健康</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>KV</source>
        <translation>KV</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>RUN</source>
        <translation>运行</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>QUEUE</source>
        <translation>排队</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TOK/S</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>TTFT P95</source>
        <translation>TTFT P95</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DISK</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>ALERTS</source>
        <translation>告警</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no deployment</source>
        <translation>无部署</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>no alerts</source>
        <translation>无告警</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>One JSON object per host.</source>
        <translation>每台主机一个 JSON 对象。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep printing until Ctrl+C.</source>
        <translation>持续输出直到按 Ctrl+C。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Seconds between prints (--watch).</source>
        <translation>两次输出之间的秒数（--watch）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Seconds to wait for every host&apos;s first answers.</source>
        <translation>等待每台主机首次回应的秒数。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Flag every host whose deployment runs other pins than this pins file (default: the one chosen in Settings → Fleet).</source>
        <translation>标记部署所运行的固定版本与此固定文件不同的每台主机（默认：设置 → 机群中选择的文件）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Where the figures come from: ssh (each host&apos;s session) or prometheus (default: Settings → Fleet).</source>
        <translation>数据来源：ssh（每台主机的会话）或 prometheus（默认：设置 → 机群）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The Prometheus to read (default: Settings → Fleet); implies --source prometheus.</source>
        <translation>要读取的 Prometheus（默认：设置 → 机群）；隐含 --source prometheus。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>--source is ssh or prometheus, not &quot;%1&quot;.
</source>
        <translation>--source 取值为 ssh 或 prometheus，而不是“%1”。
</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>No hosts yet: add one with &apos;flashdeck hosts add&apos;.
</source>
        <translation>还没有主机：请用“flashdeck hosts add”添加一台。
</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>%1 (Settings → Fleet): pins are not compared.
</source>
        <translation>%1（设置 → 机群）：不比较固定版本。
</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>the Prometheus is reached through &quot;%1&quot;, which is not in the inventory.
</source>
        <translation>Prometheus 经由“%1”访问，但它不在主机清单中。
</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>No Prometheus token: %1; set %2 or save it in Settings → Fleet.
</source>
        <translation>没有 Prometheus token：%1；请设置 %2，或在“设置 → 机群”中保存。
</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No Prometheus password: %1; set %2 or save it in Settings → Fleet.
</source>
        <translation>没有 Prometheus 密码：%1；请设置 %2，或在“设置 → 机群”中保存。
</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Prometheus gave no answer in time.</source>
        <translation>Prometheus 没有及时回应。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Watching the inventory&apos;s hosts over SSH instead.
</source>
        <translation>改为经由 SSH 监视主机清单中的主机。
</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 Whether %2 is exposed is unknown: a gateway may still run there. &apos;flashdeck unexpose %2&apos; removes whatever gateway is there and the record.</source>
        <translation>%1 无法确定 %2 是否已开放：那里可能仍有网关在运行。“flashdeck unexpose %2”会删除那里的任何网关及其记录。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>%1: exposed at %2 to %3 (pin sha256//%4)</source>
        <translation>%1：已对 %3 开放，地址 %2（固定公钥 sha256//%4）</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>No hosts: the inventory has none and Prometheus named none.
</source>
        <translation>没有主机：主机清单中没有，Prometheus 也没有给出。
</translation>
    </message>
    <message>
        <location line="-122"/>
        <source>%1: known to Prometheus, not in the inventory (add it with &apos;flashdeck hosts add %1 USER@ADDRESS&apos; to deploy there)</source>
        <translation>%1：Prometheus 知道它，但不在主机清单中（用“flashdeck hosts add %1 USER@ADDRESS”添加后即可部署）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Source: Prometheus at %1 for %2 host(s)</source>
        <translation>数据来源：%1 的 Prometheus，共 %2 台主机</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, SSH for %1</source>
        <translation>，%1 台经 SSH</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Watching over SSH until it answers.
</source>
        <translation>在它应答之前经由 SSH 监视。
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/upgradecommand.cpp" line="-343"/>
        <source>%1: the upgrade failed at %2 (%3); the host is back on its old pins %4, verified again.
</source>
        <translation>%1：升级在 %2 失败（%3）；主机已回到旧的固定版本 %4，并已重新验证。
</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: the upgrade failed at %2 and the rollback to %3 failed too (above). The host needs you: fix what the failed step says, then &apos;flashdeck upgrade %1 --resume&apos; retries the rollback.
</source>
        <translation>%1：升级在 %2 失败，回滚到 %3 也失败了（见上文）。需要你处理：按失败步骤的提示修复，然后用“flashdeck upgrade %1 --resume”重试回滚。
</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: stopped; &apos;flashdeck upgrade %1 --resume&apos; continues the %2.
</source>
        <translation>%1：已停止；“flashdeck upgrade %1 --resume”会继续%2。
</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The image digest to move to.</source>
        <translation>要迁移到的镜像 digest。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The model commit (40 hex digits) to move to.</source>
        <translation>要迁移到的模型 commit（40 位十六进制）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Move to the digest and commit of a pins file (&apos;flashdeck pins lock&apos; writes one).</source>
        <translation>迁移到固定文件中的 digest 和 commit（由“flashdeck pins lock”生成）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Continue an interrupted upgrade or rollback.</source>
        <translation>继续被中断的升级或回滚。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How many hosts upgrade at once (default 1).</source>
        <translation>同时升级的主机数（默认 1）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>At most this many seconds for each server to be ready.</source>
        <translation>等待每台服务器就绪的最长秒数。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fail the Ready step after this many seconds without progress (default 900).</source>
        <translation>连续这么多秒没有进展则判定“就绪”步骤失败（默认 900）。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>--resume continues the recorded upgrade: leave out the pins.</source>
        <translation>--resume 继续已记录的升级：请去掉固定参数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>say what to move to: --image-digest, --model-revision or --pins.</source>
        <translation>请说明要迁移到什么：--image-digest、--model-revision 或 --pins。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>--max-unavailable takes a number of hosts, at least 1.</source>
        <translation>--max-unavailable 取主机数，至少为 1。</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>%1: the gateway at %2 is kept and proxies to the server on 127.0.0.1:%3 (&apos;flashdeck expose %1 --check&apos; proves it).
</source>
        <translation>%1：%2 上的网关已保留，并转发到 127.0.0.1:%3 上的服务器（“flashdeck expose %1 --check”可验证）。
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: the server now listens on 127.0.0.1:%3, the gateway at %2 still sends to %4: place it again with &apos;flashdeck unexpose %1&apos; and then: %5
</source>
        <translation>%1：服务器现在监听 127.0.0.1:%3，而 %2 上的网关仍转发到 %4：请先运行“flashdeck unexpose %1”，再运行：%5
</translation>
    </message>
    <message>
        <location line="+125"/>
        <source>SSH exit code %1</source>
        <translation>SSH 退出码 %1</translation>
    </message>
    <message>
        <location line="-166"/>
        <source>%1: rolling back to %2 (stopped)
</source>
        <translation>%1：正在回滚到 %2（已停止）
</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: rolling back to %2 (%3 failed)
</source>
        <translation>%1：正在回滚到 %2（%3 失败）
</translation>
    </message>
    <message>
        <location line="+198"/>
        <source>Cancelling: the running step stops and the upgrade is kept for --resume (Ctrl+C again to quit at once)…
</source>
        <translation>正在取消：正在运行的步骤会停止，升级记录保留以便 --resume（再按一次 Ctrl+C 立即退出）…
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/clisession.cpp" line="-31"/>
        <source>The host key of %1 is not known (%2 %3). Check it with &apos;flashdeck hosts check %4 --accept-new-host-key&apos; first.
</source>
        <translation>%1 的主机密钥未知（%2 %3）。请先用“flashdeck hosts check %4 --accept-new-host-key”检查。
</translation>
    </message>
    <message>
        <location filename="../../backend/cli/stepprinter.cpp" line="+56"/>
        <source>fix: </source>
        <translation>修复：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>note: </source>
        <translation>注意：</translation>
    </message>
    <message>
        <location filename="../../backend/cli/undeploycommand.cpp" line="-55"/>
        <source>No Flashdeck container on %1.
</source>
        <translation>%1 上没有 Flashdeck 容器。
</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stopped and removed: %1
</source>
        <translation>已停止并删除：%1
</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>%1 is open to the team at %2: run &apos;flashdeck unexpose %1&apos; first, so its gateway does not pass requests to whatever listens on port %3 next.</source>
        <translation>%1 已在 %2 向团队开放：请先运行“flashdeck unexpose %1”，以免其网关把请求转给之后监听端口 %3 的任何程序。</translation>
    </message>
    <message>
        <location filename="../../backend/cli/tunnelcommand.cpp" line="-33"/>
        <source>--%1 takes a port number (1 to 65535).
</source>
        <translation>--%1 需要一个端口号（1 到 65535）。
</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Forwarding %1 → %2:%3 (only you can connect; Ctrl-C stops)
</source>
        <translation>正在转发 %1 → %2:%3（只有你能连接；Ctrl-C 停止）
</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Listen on this port of 127.0.0.1 (default: any free port).</source>
        <translation>监听 127.0.0.1 的这个端口（默认：任一空闲端口）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Print {&quot;url&quot;, &quot;local_port&quot;, &quot;remote_port&quot;}.</source>
        <translation>输出 {&quot;url&quot;, &quot;local_port&quot;, &quot;remote_port&quot;}。</translation>
    </message>
    <message>
        <location line="+45"/>
        <source> Choose another --local-port, or leave it out for a free port.</source>
        <translation> 请换一个 --local-port，或不指定以使用空闲端口。</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewayoperation.cpp" line="+39"/>
        <source>The deployment on %1 was undeployed: deploy again, then expose it.</source>
        <translation>%1 上的部署已撤除：请重新部署后再开放。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Deploy first, then expose the server.</source>
        <translation>请先部署，再开放服务器。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Nothing was changed.</source>
        <translation>未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../backend/cli/exposecommand.cpp" line="+45"/>
        <source>Image: %1:%2, pinned as %3.
</source>
        <translation>镜像：%1:%2，固定为 %3。
</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Preview only: nothing was changed on %1.
</source>
        <translation>仅预览：%1 上未做任何更改。
</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Exposed %1 at %2 (container %3, %4).
</source>
        <translation>已开放 %1，地址 %2（容器 %3，%4）。
</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allowed networks: %1
</source>
        <translation>放行的网络：%1
</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Self-signed certificate made on the host, valid until %1.
</source>
        <translation>已在主机上生成自签名证书，有效期至 %1。
</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your certificate, valid until %1.
</source>
        <translation>你的证书，有效期至 %1。
</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>SHA-256 public-key pin: sha256//%1
</source>
        <translation>SHA-256 公钥固定值：sha256//%1
</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Certificate SHA-256 fingerprint: %1
</source>
        <translation>证书 SHA-256 指纹：%1
</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A colleague in an allowed network checks it with:
</source>
        <translation>放行网络中的同事可以这样检查：
</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(--insecure skips the certificate authority check a self-signed certificate cannot pass; the pin checks the server&apos;s key instead.)
</source>
        <translation>（--insecure 跳过自签名证书无法通过的证书颁发机构检查；固定公钥会检查服务器的密钥。）
</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>stopped without waiting: what was placed may be left; &apos;flashdeck unexpose %1&apos; removes it.
</source>
        <translation>未等待即停止：已放置的内容可能留在主机上；“flashdeck unexpose %1”可将其删除。
</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cancelling: removing what was placed (Ctrl+C again to quit at once)…
</source>
        <translation>正在取消：删除已放置的内容（再按一次 Ctrl+C 立即退出）…
</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>stopped before anything was placed on the host.</source>
        <translation>在主机上放置任何东西之前已停止。</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewayoperation.cpp" line="+80"/>
        <source>The gateway runs, but its record could not be written: %1. Free the space, then &apos;flashdeck unexpose %2&apos; and expose again.</source>
        <translation>网关已在运行，但无法写入其记录：%1。请释放空间，然后运行“flashdeck unexpose %2”并重新开放。</translation>
    </message>
    <message>
        <location filename="../../backend/cli/unexposecommand.cpp" line="-66"/>
        <source>%1 was not exposed: no gateway there.
</source>
        <translation>%1 未开放：那里没有网关。
</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stopped and removed the gateway %1 and its folder (certificate and key); the server was not touched.
</source>
        <translation>已停止并删除网关 %1 及其目录（证书和私钥）；服务器未受影响。
</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>The gateway on %1 was removed, but its record here could not be: %2</source>
        <translation>%1 上的网关已移除，但本机上的记录无法移除：%2</translation>
    </message>
    <message>
        <location filename="../../backend/cli/exposecommand.cpp" line="+20"/>
        <location filename="../../backend/cli/unexposecommand.cpp" line="+54"/>
        <source>Could not reach %1 (exit code %2).</source>
        <translation>无法连接 %1（退出码 %2）。</translation>
    </message>
    <message>
        <location filename="../../backend/cli/exposecheck.cpp" line="+24"/>
        <source>%1 is not exposed: run &apos;flashdeck expose %1 --allow CIDR&apos; first.</source>
        <translation>%1 未开放：请先运行 “flashdeck expose %1 --allow CIDR”。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/hostlock.cpp" line="+20"/>
        <source>Another command is changing %1 right now (a deploy, an upgrade, an expose or an unexpose, from a window or a terminal): this one changed nothing. Wait for it to end, then run this again.</source>
        <translation>另一个命令正在更改 %1（来自窗口或终端的部署、升级、expose 或 unexpose）：本命令未做任何更改。请等它结束后再运行。</translation>
    </message>
</context>
<context>
    <name>ConnectionController</name>
    <message>
        <location filename="../../ui/connectioncontroller.cpp" line="+62"/>
        <source>Key passphrase</source>
        <translation>密钥口令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The key %1 is protected by a passphrase (for %2).</source>
        <translation>密钥 %1 受口令保护（用于 %2）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Passphrase:</source>
        <translation>口令：</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Password for %1@%2.</source>
        <translation>%1@%2 的密码。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Password:</source>
        <translation>密码：</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Sign in to %1</source>
        <translation>登录到 %1</translation>
    </message>
</context>
<context>
    <name>Core</name>
    <message>
        <location filename="../../backend/core/apppaths.cpp" line="+55"/>
        <source>Cannot create the folder %1. Check that its parent exists and is writable, or pass another --config-dir.</source>
        <translation>无法创建目录 %1。请检查其上级目录存在且可写，或指定另一个 --config-dir。</translation>
    </message>
    <message>
        <location filename="../../backend/core/language.cpp" line="+150"/>
        <source>The Chinese translation is missing from this build of Flashdeck; it speaks English. Rebuild with Qt&apos;s lrelease installed.</source>
        <translation>此版本的 Flashdeck 缺少中文翻译，将使用英文。请安装 Qt 的 lrelease 后重新构建。</translation>
    </message>
    <message>
        <location filename="../../backend/core/settings.cpp" line="+226"/>
        <source>Could not save settings to %1: the file is not writable or not valid INI. Check the folder&apos;s permissions and free space.</source>
        <translation>无法将设置保存到 %1：文件不可写或不是有效的 INI。请检查目录权限和剩余空间。</translation>
    </message>
    <message>
        <location filename="../../backend/core/singleinstance.cpp" line="+50"/>
        <source>Cannot make sure only one Flashdeck window runs (%1); a second one would open its own window.</source>
        <translation>无法确保只运行一个 Flashdeck 窗口（%1）；再次启动会打开另一个窗口。</translation>
    </message>
    <message>
        <location filename="../../backend/core/linkreply.cpp" line="+122"/>
        <source>Operation timed out</source>
        <translation>操作超时</translation>
    </message>
    <message>
        <location line="+27"/>
        <location filename="../../backend/core/localhttpclient.cpp" line="+147"/>
        <source>The server&apos;s answer was not HTTP that Flashdeck can read.</source>
        <translation>服务器的应答不是 Flashdeck 能读懂的 HTTP。</translation>
    </message>
    <message>
        <location line="+28"/>
        <location filename="../../backend/core/localhttpclient.cpp" line="+42"/>
        <source>The connection closed before the answer was complete.</source>
        <translation>应答尚未完整，连接就已关闭。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Error transferring %1 - server replied: %2</source>
        <translation>传输 %1 时出错 - 服务器回复：%2</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Operation canceled</source>
        <translation>操作已取消</translation>
    </message>
    <message>
        <location filename="../../backend/core/localhttpclient.cpp" line="+8"/>
        <source>No answer within %1 s.</source>
        <translation>%1 秒内没有应答。</translation>
    </message>
    <message>
        <location filename="../../backend/core/linkopener.cpp" line="+61"/>
        <source>No tunnel to connect through.</source>
        <translation>没有可用于连接的隧道。</translation>
    </message>
    <message>
        <location filename="../../backend/core/heldlock.cpp" line="+47"/>
        <source>Could not open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is held by another run</source>
        <translation>%1 正被另一次运行持有</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not lock %1: %2</source>
        <translation>无法锁定 %1：%2</translation>
    </message>
</context>
<context>
    <name>Demo</name>
    <message>
        <location filename="../../backend/demo/demohost.cpp" line="+160"/>
        <source>The simulated host is not built (%1 is missing). Build it with &apos;cmake --build build/release --target flashdeck_simhost&apos; (make run does).</source>
        <translation>模拟主机尚未构建（缺少 %1）。请用“cmake --build build/release --target flashdeck_simhost”构建（make run 会自动构建）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The demo runs a local OpenSSH server, and /usr/sbin/sshd is not installed. Install it with &apos;sudo apt-get install openssh-server&apos; (scripts/bootstrap does).</source>
        <translation>演示会运行一个本地 OpenSSH 服务器，但未安装 /usr/sbin/sshd。请用“sudo apt-get install openssh-server”安装（scripts/bootstrap 会安装）。</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <location line="+27"/>
        <location line="+171"/>
        <source>Cannot create %1.</source>
        <translation>无法创建 %1。</translation>
    </message>
    <message>
        <location line="-143"/>
        <source>No scenario named &quot;%1&quot;. Scenarios: %2.</source>
        <translation>没有名为“%1”的场景。可用场景：%2。</translation>
    </message>
    <message>
        <location line="+23"/>
        <location line="+12"/>
        <source>The simulated host&apos;s private network could not be set up.</source>
        <translation>无法建立模拟主机的私有网络。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The simulated host&apos;s daemon did not start.</source>
        <translation>模拟主机的守护进程没有启动。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Cannot generate the demo&apos;s SSH keys.</source>
        <translation>无法生成演示用的 SSH 密钥。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>The demo&apos;s OpenSSH server did not start.</source>
        <translation>演示的 OpenSSH 服务器没有启动。</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Demo: %1 (scenario %2). Nothing here is a real GPU.</source>
        <translation>演示：%1（场景 %2）。这里没有真实的 GPU。</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Some demo processes did not stop. Their pids are in %1.</source>
        <translation>部分演示进程没有停止。它们的 pid 记录在 %1 中。</translation>
    </message>
</context>
<context>
    <name>Deploy</name>
    <message>
        <location filename="../../backend/deploy/acknowledgements.cpp" line="+70"/>
        <source>Cannot read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 is not a Flashdeck acknowledgements file (expected an object with an &quot;acknowledgements&quot; array). Move it aside and acknowledge again.</source>
        <translation>%1 不是 Flashdeck 的确认记录文件（应为含有“acknowledgements”数组的对象）。请把它移到别处后重新确认。</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Cannot record the licence acknowledgement. %1</source>
        <translation>无法记录许可证确认。%1</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/apikeyrecovery.cpp" line="+38"/>
        <source>Could not reach the host&apos;s Docker to read the server&apos;s API key: %1</source>
        <translation>无法连接主机的 Docker 来读取服务器的 API 密钥：%1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The deployment&apos;s server container %1 is not on the host any more (removed): deploy again.</source>
        <translation>部署的服务器容器 %1 已不在主机上（已被删除）：请重新部署。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The host&apos;s Docker did not show the server container %1: %2</source>
        <translation>主机的 Docker 没有显示服务器容器 %1：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server container %1 is not running (%2): run &apos;flashdeck deploy&apos; for this host with --resume to start it again.</source>
        <translation>服务器容器 %1 没有运行（%2）：请对该主机运行“flashdeck deploy”并加 --resume 以重新启动。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server container %1 was started without --api-key: it asks for no key, or another tool started it.</source>
        <translation>服务器容器 %1 启动时没有 --api-key：它不要求密钥，或是由其他工具启动的。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/checks.cpp" line="+138"/>
        <source>The profile needs %1 × %2</source>
        <translation>该配置需要 %1 × %2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Choose the profile for this host&apos;s GPUs (flashdeck recipes list), or deploy on a host with %1 × %2.</source>
        <translation>为该主机的 GPU 选择配置（flashdeck recipes list），或部署到具有 %1 × %2 的主机上。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The pinned image needs the CUDA %1 runtime</source>
        <translation>固定的镜像需要 CUDA %1 运行时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>driver %1, CUDA %2</source>
        <translation>驱动 %1，CUDA %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Install an NVIDIA driver whose CUDA version is %1 or newer (nvidia-smi shows it top right), reboot, and run again.</source>
        <translation>请安装 CUDA 版本为 %1 或更新的 NVIDIA 驱动（nvidia-smi 右上角显示），重启后再运行。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The server takes --mem-fraction-static %1 of each whole card at start</source>
        <translation>服务器启动时占用每张整卡的 --mem-fraction-static %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../../backend/deploy/deploygpumemory.cpp" line="+118"/>
        <source>%1 % of each GPU of the profile free</source>
        <translation>配置中每块 GPU 空闲 %1 %</translation>
    </message>
    <message>
        <location line="-116"/>
        <source>pid %1 (%2) holds %3</source>
        <translation>pid %1（%2）占用 %3</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>pid %1 (%2) holds %3 on GPUs rocm-smi does not name (%4 of them)</source>
        <translation>pid %1（%2）在 rocm-smi 未指明的 GPU 上共占用 %3（共 %4 块）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1, Flashdeck&apos;s deployment %2</source>
        <translation>%1，Flashdeck 的部署 %2</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>pid %1 (%2, Flashdeck&apos;s deployment %3) holds %4</source>
        <translation>pid %1（%2，Flashdeck 的部署 %3）占用 %4</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>GPU %1: %2 free of %3, the server needs %4%5</source>
        <translation>GPU %1：%3 中空闲 %2，服务器需要 %4%5</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>every GPU of the profile has the %1 the server takes free</source>
        <translation>配置中的每块 GPU 都有服务器所需的 %1 空闲</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the memory in use on GPU %1 is this deployment&apos;s own running server&apos;s (nvidia-smi lists no process for it, as inside containers and some VMs): this run reuses it</source>
        <translation>GPU %1 上使用中的内存属于此部署自己正在运行的服务器（nvidia-smi 没有列出占用它的进程，容器内和某些虚拟机中就是如此）：本次运行沿用它</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Flashdeck&apos;s own deployment %1 holds them: remove it with &apos;flashdeck undeploy %2&apos; (it stops only Flashdeck&apos;s containers), or deploy that profile again instead.</source>
        <translation>占用它们的是 Flashdeck 自己的部署 %1：用“flashdeck undeploy %2”移除（只停止 Flashdeck 的容器），或改为重新部署该配置。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The other processes are not Flashdeck&apos;s: find out whose they are on the host (ps -o user,etime,cmd -p PID), stop them or wait for them, then run again with --resume.</source>
        <translation>其他进程不属于 Flashdeck：在主机上查明它们属于谁（ps -o user,etime,cmd -p PID），停止它们或等待其结束，然后加 --resume 再运行。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>About %1 of weights, plus the image and caches</source>
        <translation>约 %1 的权重，加上镜像和缓存</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>≥ %1 free for the image (the weights are already on the host)</source>
        <translation>镜像需要 ≥ %1 空闲（权重已在主机上）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>≥ %1 free (%2 weights + %3 image)</source>
        <translation>需要 ≥ %1 空闲（%2 权重 + %3 镜像）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 free on %2</source>
        <translation>%2 上空闲 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Free %1 more on %2, or point the Hugging Face cache at a larger disk.</source>
        <translation>请在 %2 上再腾出 %1，或将 Hugging Face 缓存指向更大的磁盘。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The server publishes on the host&apos;s loopback</source>
        <translation>服务器只在主机回环地址上发布</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>nothing listening on %1</source>
        <translation>%1 上没有监听</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>all free</source>
        <translation>全部空闲</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in use: %1</source>
        <translation>已占用：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Stop what listens there (sudo ss -ltnp &apos;sport = :%1&apos; shows it), or deploy on a free port: --port %2 (the Port field in the window); chat, status and the runbook follow it.</source>
        <translation>请停止在该端口监听的程序（sudo ss -ltnp &apos;sport = :%1&apos; 可查看），或部署到空闲端口：--port %2（窗口中的“端口”字段）；chat、status 和 runbook 会随之使用。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>--hicache-size counts per rank</source>
        <translation>--hicache-size 按每个 rank 计算</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>≥ %1 available (%2 GB × %3 ranks)</source>
        <translation>≥ %1 可用（%2 GB × %3 个 rank）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 available of %2</source>
        <translation>%2 中可用 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Lower --hicache-size to at most %1 GB per rank, or free host memory.</source>
        <translation>请将 --hicache-size 降到每个 rank 最多 %1 GB，或释放主机内存。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/startlogchecks.cpp" line="+84"/>
        <source>Any other backend means the image&apos;s CUDA Toolkit is older than 13.4 and decode silently takes a slow path</source>
        <translation>任何其他后端都意味着镜像的 CUDA Toolkit 低于 13.4，解码会悄悄走慢速路径</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>qmul4 seen on %1 at the first start of this image and revision; not printed by this start</source>
        <translation>此镜像与版本的首次启动于 %1 输出了 qmul4；本次启动未输出</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>backend=%1 seen on %2 at the first start of this image and revision; not printed by this start</source>
        <translation>此镜像与版本的首次启动于 %2 输出了 backend=%1；本次启动未输出</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>not printed by this start</source>
        <translation>本次启动未输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to do for the deployment: this start did not name the NVFP4 KV decode backend. When a start of this image and revision prints it, Flashdeck keeps it and says it at later starts.</source>
        <translation>部署无需处理：本次启动没有说明 NVFP4 KV 解码所用的后端。当此镜像与版本的某次启动输出该行时，Flashdeck 会记下它，并在之后的启动中告知。</translation>
    </message>
    <message>
        <location line="-56"/>
        <source>The server found a CUDA Toolkit older than 13.4 in its image and fell back to %1: decode is slower. Run the pinned image, or one built with CUDA 13.4 or newer, and restart; a driver update does not change the image&apos;s toolkit.</source>
        <translation>服务器发现镜像中的 CUDA Toolkit 低于 13.4，已回退到 %1：解码变慢。请运行固定的镜像或用 CUDA 13.4 及以上构建的镜像，然后重启；更新驱动不会改变镜像中的 toolkit。</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>--speculative-algorithm DSPARK loads the draft from the checkpoint&apos;s dspark/ subfolder</source>
        <translation>--speculative-algorithm DSPARK 从检查点的 dspark/ 子目录加载草稿模型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a DSpark draft line</source>
        <translation>一行 DSpark 草稿模型日志</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>no DSpark line in the log</source>
        <translation>日志中没有 DSpark 行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speculative decoding is off: check that the pinned revision has the dspark/ folder and that the launch has --speculative-algorithm DSPARK.</source>
        <translation>投机解码未开启：请检查固定的 revision 中有 dspark/ 目录，且启动参数含 --speculative-algorithm DSPARK。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The profile expects about %1 tokens</source>
        <translation>该配置预期约 %1 个 token</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>≈ %1 tokens (±15 %)</source>
        <translation>≈ %1 个 token（±15 %）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no published figure</source>
        <translation>无公布的数字</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the log names no KV pool size</source>
        <translation>日志中没有 KV 池大小</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Check --mem-fraction-static and what else holds GPU memory (nvidia-smi).</source>
        <translation>请检查 --mem-fraction-static 以及还有什么占用了显存（nvidia-smi）。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deploygpumemory.cpp" line="+11"/>
        <location filename="../../backend/deploy/deploypreflight.cpp" line="+144"/>
        <location line="+88"/>
        <source>Check the NVIDIA driver installation.</source>
        <translation>请检查 NVIDIA 驱动的安装。</translation>
    </message>
    <message>
        <location line="+149"/>
        <source>Give each service more GPUs (generate the command for a larger TP × DP × PP and give it those GPUs), or deploy on GPUs with more memory.</source>
        <translation>给每个服务更多 GPU（为更大的 TP × DP × PP 生成命令并把这些 GPU 交给它），或部署到显存更大的 GPU 上。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deploylaunch.cpp" line="+145"/>
        <source>the server&apos;s containers created and started</source>
        <translation>服务器容器已创建并启动</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Fix the profile or the inputs and run again.</source>
        <translation>请修正配置或输入后再运行。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1 container(s) labelled io.flashdeck.deployment=%2 running</source>
        <translation>%1 个带有 io.flashdeck.deployment=%2 标签的容器正在运行</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>stopped and removed the server of the earlier pins: %1</source>
        <translation>已停止并删除旧固定版本的服务器：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>started %1</source>
        <translation>已启动 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>already running (not started again): %1</source>
        <translation>已在运行（未重复启动）：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This profile is not verified upstream: validate it with your own load before relying on it. %1</source>
        <translation>此配置未经上游验证：在依赖它之前，请用你自己的负载验证。%1</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 runs %2, started with other pins or flags than this deployment&apos;s (%3)</source>
        <translation>%1 运行着 %2，它以不同于本次部署的固定版本或参数启动（%3）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>To move the host to these pins with an automatic rollback, run &apos;flashdeck upgrade HOST --image-digest … --model-revision …&apos; (Upgrade… on the Deploy page); or &apos;flashdeck undeploy HOST&apos; first to start afresh.</source>
        <translation>如需将主机迁移到这些固定版本并支持自动回滚，请运行“flashdeck upgrade HOST --image-digest … --model-revision …”（或“部署”页上的“升级…”）；也可先运行“flashdeck undeploy HOST”从头开始。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Check the image and the container settings.</source>
        <translation>请检查镜像和容器设置。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Port %1 is taken on the host: stop what listens there.</source>
        <translation>主机上的端口 %1 已被占用：请停止在该端口监听的程序。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read the message above; fix and run again.</source>
        <translation>请阅读上面的消息；修正后再运行。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 on 127.0.0.1:%2</source>
        <translation>%1，位于 127.0.0.1:%2</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deployready.cpp" line="+38"/>
        <source>/health 200 after the ready log line; it waits as long as the start makes progress (a first start downloads %1 GB and compiles kernels) and stops after %2 without any progress</source>
        <translation>就绪日志行出现后 /health 返回 200；只要启动仍有进展就一直等待（首次启动要下载 %1 GB 并编译内核），连续 %2 没有任何进展则停止</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>GET http://127.0.0.1:%1/health; docker logs -f; du -sb on the host&apos;s caches</source>
        <translation>GET http://127.0.0.1:%1/health；docker logs -f；在主机缓存上运行 du -sb</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>/health 200 and &quot;The server is fired up and ready to roll!&quot;</source>
        <translation>/health 返回 200，且出现“The server is fired up and ready to roll!”</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>/health 200; ready line seen; </source>
        <translation>/health 返回 200；已见就绪行；</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>the connection to the host was lost while waiting for the server (%1); the server may still be starting — nothing seen says it stopped</source>
        <translation>等待服务器期间与主机的连接断开（%1）；服务器可能仍在启动——没有任何迹象表明它已停止</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Once the host is reachable again, run again with --resume: a server that is running is not started twice.</source>
        <translation>主机恢复可达后，加 --resume 再运行：正在运行的服务器不会被重复启动。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the server exited; last lines:
</source>
        <translation>服务器已退出；最后几行：
</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read the log (flashdeck logs) and fix the cause.</source>
        <translation>请阅读日志（flashdeck logs）并修复原因。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>no tunnel to the server&apos;s port: %1</source>
        <translation>没有通往服务器端口的隧道：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check the SSH connection to the host, then run again with --resume.</source>
        <translation>请检查到主机的 SSH 连接，然后加 --resume 再运行。</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>no progress for %1: %2; last lines:
%3</source>
        <translation>%1 内没有进展：%2；最后几行：
%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The weights stopped arriving: check the host&apos;s access to the Hugging Face Hub (a proxy, HF_ENDPOINT, a token for a gated repo) and its free disk (df -h ~/.cache/huggingface), then run again with --resume: what is in the cache is kept and the download goes on from there. A slower start needs a longer --stall-timeout.</source>
        <translation>权重停止下载：请检查主机访问 Hugging Face Hub 的能力（代理、HF_ENDPOINT、受限仓库的 token）及其剩余磁盘（df -h ~/.cache/huggingface），然后加 --resume 再运行：缓存中已有的内容会保留，下载从那里继续。启动较慢时请加大 --stall-timeout。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server stopped making progress: read its log (flashdeck logs). A start that is only slow needs a longer --stall-timeout.</source>
        <translation>服务器停止了进展：请阅读它的日志（flashdeck logs）。如果只是启动较慢，请加大 --stall-timeout。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>not ready after %1 s (%2); last lines:
%3</source>
        <translation>%1 秒后仍未就绪（%2）；最后几行：
%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server is still starting or stuck: read its log; a first start downloads 252 GB and compiles kernels, so give it longer with --ready-timeout, or leave it out: the step then waits as long as the start makes progress.</source>
        <translation>服务器仍在启动或已卡住：请阅读它的日志；首次启动要下载 252 GB 并编译内核，请用 --ready-timeout 给它更长时间，或不设该参数：这样只要启动仍有进展，该步骤就会一直等待。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deploylaunch.cpp" line="+19"/>
        <source>the generator&apos;s command does not turn on DSpark (--speculative-algorithm DSPARK)</source>
        <translation>生成器的命令没有开启 DSpark（--speculative-algorithm DSPARK）</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/checks.cpp" line="+11"/>
        <source>ROCm host: qmul4 is an NVIDIA kernel (the check applies to CUDA only)</source>
        <translation>ROCm 主机：qmul4 是 NVIDIA 内核（该检查只适用于 CUDA）</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Hopper GPUs (%1): qmul4 is a Blackwell CUDA kernel, so no start prints its line here (the check applies to Blackwell GPUs only)</source>
        <translation>Hopper GPU（%1）：qmul4 是 Blackwell 的 CUDA 内核，这里的启动不会打印它的那一行（此检查只适用于 Blackwell GPU）</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deploylaunch.cpp" line="+23"/>
        <source>the server&apos;s log</source>
        <translation>服务器日志</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>POST /v1/chat/completions (Bearer key)</source>
        <translation>POST /v1/chat/completions（Bearer 密钥）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>content non-empty, reasoning_content empty or null</source>
        <translation>content 非空，reasoning_content 为空或 null</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>content non-empty</source>
        <translation>content 非空</translation>
    </message>
    <message>
        <location line="-280"/>
        <source>; then </source>
        <translation>；然后 </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server refused the key: restart the deployment.</source>
        <translation>服务器拒绝了密钥：请重启该部署。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server refused the request: its message above says why (read the server&apos;s log for more).</source>
        <translation>服务器拒绝了请求：上面的消息说明了原因（更多内容见服务器日志）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+308"/>
        <source>Read the server&apos;s log for the error.</source>
        <translation>请在服务器日志中查看错误。</translation>
    </message>
    <message>
        <location line="-284"/>
        <source>content: %1 characters; reasoning_content: %2%3</source>
        <translation>content：%1 个字符；reasoning_content：%2%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 characters</source>
        <translation>%1 个字符</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>; finish_reason %1</source>
        <translation>；finish_reason %1</translation>
    </message>
    <message>
        <location line="+258"/>
        <source>the answer ended at the %1-token limit while thinking (%2); asked again with thinking off</source>
        <translation>回答在思考中达到了 %1 个 token 的上限（%2）；已关闭思考重新询问</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Check the reasoning parser (--reasoning-parser minimax-m3) and the image&apos;s chat template.</source>
        <translation>请检查推理解析器（--reasoning-parser minimax-m3）和镜像的聊天模板。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Even with thinking off the answer ran out of tokens: read the server&apos;s log, and check the context length and the chat template.</source>
        <translation>即使关闭思考，回答仍耗尽了 token：请阅读服务器日志，并检查上下文长度和聊天模板。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deploypreflight.cpp" line="-181"/>
        <source>an authenticated session with a verified host key</source>
        <translation>经过认证且主机密钥已验证的会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>the profile needs %1 × %2; the host has %3</source>
        <translation>该配置需要 %1 × %2；主机有 %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Choose a profile for this host&apos;s GPUs (flashdeck recipes list).</source>
        <translation>请为该主机的 GPU 选择配置（flashdeck recipes list）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a profile for this host&apos;s GPUs: %1 (flashdeck recipes list).</source>
        <translation>请为该主机的 GPU 选择配置：%1（flashdeck recipes list）。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Install the NVIDIA driver on the host (nvidia-smi must work).</source>
        <translation>请在主机上安装 NVIDIA 驱动（nvidia-smi 必须可用）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Install ROCm&apos;s amd-smi on the host.</source>
        <translation>请在主机上安装 ROCm 的 amd-smi。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deploygpumemory.cpp" line="-122"/>
        <location line="+11"/>
        <location line="+9"/>
        <location filename="../../backend/deploy/deploypreflight.cpp" line="+19"/>
        <source>Check the ROCm installation.</source>
        <translation>请检查 ROCm 的安装。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deploypreflight.cpp" line="+51"/>
        <source>GPUs %1-%2 on port %3</source>
        <translation>GPU %1-%2，端口 %3</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n services of TP %1 (%2) behind the SGLang Router on port %3 (--policy %4)</source>
        <translation>
            <numerusform>%n 个 TP %1 的服务（%2）位于 SGLang Router 之后，端口 %3（--policy %4）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>ROCm host: no CUDA driver to check</source>
        <translation>ROCm 主机：没有 CUDA 驱动需要检查</translation>
    </message>
    <message>
        <location line="+23"/>
        <location line="+90"/>
        <source>the Engine API answers through docker system dial-stdio</source>
        <translation>Engine API 通过 docker system dial-stdio 应答</translation>
    </message>
    <message>
        <location line="-75"/>
        <location line="+44"/>
        <source>Start Docker on the host (systemctl start docker) and check that this user may use it.</source>
        <translation>请在主机上启动 Docker（systemctl start docker），并确认该用户有权使用它。</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Docker with the nvidia runtime</source>
        <translation>带 nvidia 运行时的 Docker</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Docker %1, API %2%3</source>
        <translation>Docker %1，API %2%3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, nvidia runtime</source>
        <translation>，nvidia 运行时</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Install the NVIDIA Container Toolkit on the host and restart Docker.</source>
        <translation>请在主机上安装 NVIDIA Container Toolkit 并重启 Docker。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Install Docker Engine on the host and let this user run it (docker group).</source>
        <translation>请在主机上安装 Docker Engine，并允许该用户运行它（docker 组）。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>The user %1 may not use Docker&apos;s socket on the host. Add the user to the docker group (sudo usermod -aG docker %1), log in again so the group applies, then run again with --resume.</source>
        <translation>用户 %1 无权使用主机上的 Docker 套接字。请把该用户加入 docker 组（sudo usermod -aG docker %1），重新登录使组生效，然后加 --resume 再运行。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Docker is installed but its daemon is not running: start it on the host (sudo systemctl start docker), then run again with --resume.</source>
        <translation>Docker 已安装但其守护进程没有运行：请在主机上启动它（sudo systemctl start docker），然后加 --resume 再运行。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Docker is not installed on the host: install Docker Engine (Debian: sudo apt-get install docker.io), then run again with --resume.</source>
        <translation>主机上没有安装 Docker：请安装 Docker Engine（Debian：sudo apt-get install docker.io），然后加 --resume 再运行。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Fix what Docker reports on the host, then run again with --resume.</source>
        <translation>请修复主机上 Docker 报告的问题，然后加 --resume 再运行。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Check that the home directory on the host is writable.</source>
        <translation>请检查主机上的主目录是否可写。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>in use by this deployment&apos;s running server</source>
        <translation>被本部署正在运行的服务器占用</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>HiCache is off in this deployment</source>
        <translation>本部署未开启 HiCache</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Check that /proc/meminfo is readable on the host.</source>
        <translation>请检查主机上的 /proc/meminfo 是否可读。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deployrunner.cpp" line="+85"/>
        <source>nothing: Flashdeck had not reached the host&apos;s Docker Engine yet</source>
        <translation>无：Flashdeck 尚未连到主机的 Docker Engine</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>unknown: the Docker Engine did not answer (check with docker ps --filter label=io.flashdeck.deployment=%1)</source>
        <translation>未知：Docker Engine 没有应答（请用 docker ps --filter label=io.flashdeck.deployment=%1 检查）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>unknown: %1</source>
        <translation>未知：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>container %1 (%2)</source>
        <translation>容器 %1（%2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no Flashdeck container</source>
        <translation>没有 Flashdeck 容器</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>cancelled by the operator during this step. Left on the host: %1.</source>
        <translation>操作员在此步骤中取消。留在主机上的：%1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> The pull was stopped; the layers already unpacked stay in Docker&apos;s store and are reused.</source>
        <translation> 拉取已停止；已解压的层保留在 Docker 的存储中，会被复用。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Resume on the Deploy page, or run the same deploy command with --resume, to continue from here; &apos;flashdeck undeploy&apos; removes Flashdeck&apos;s containers (and nothing else).</source>
        <translation>在“部署”页点“继续”，或加 --resume 运行同一部署命令，即可从这里继续；“flashdeck undeploy”会删除 Flashdeck 的容器（仅此而已）。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Free disk space on this machine, then run again with --resume.</source>
        <translation>请在本机上腾出磁盘空间，然后加 --resume 再运行。</translation>
    </message>
    <message>
        <location line="+108"/>
        <source>it was killed by SIG%1</source>
        <translation>它被 SIG%1 终止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it exited with status %1 and printed no error</source>
        <translation>它以状态 %1 退出，没有输出错误</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1, non-commercial grant; commercial use has conditions</source>
        <translation>%1，授予非商业使用；商业使用附有条件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>an acknowledgement of the %1 (%2)</source>
        <translation>对 %1 的确认（%2）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>acknowledged for %1 use</source>
        <translation>已确认用于%1用途</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no acknowledgement for this host and licence version</source>
        <translation>该主机和该许可证版本尚无确认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read the %1 (commercial use must show &quot;Built with MiniMax M3.1-Flash&quot;; revenue above USD 20 million needs MiniMax&apos;s written authorisation; no military use), then run with --accept-license noncommercial|commercial|commercial-authorized (&apos;flashdeck license&apos; shows the summary; a changed summary asks again).</source>
        <translation>请阅读 %1（商业使用须展示“Built with MiniMax M3.1-Flash”；年收入超过 2000 万美元需要 MiniMax 的书面授权；禁止任何军事用途），然后加 --accept-license noncommercial|commercial|commercial-authorized 运行（“flashdeck license”显示摘要；摘要变化后会再次询问）。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Generate the command with SGLang&apos;s configuration generator and give it to the deployment.</source>
        <translation>请用 SGLang 的配置生成器生成命令，并将其交给此次部署。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>SGLang&apos;s configuration generator&apos;s command for this hardware</source>
        <translation>适用于此硬件的 SGLang 配置生成器命令</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Check the image name and the host&apos;s access to the registry (docker pull %1 on the host).</source>
        <translation>请检查镜像名以及主机访问镜像仓库的能力（在主机上运行 docker pull %1）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+6"/>
        <source>a sha256 digest</source>
        <translation>一个 sha256 digest</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The digest chosen for this host</source>
        <translation>为该主机选定的 digest</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 on the host or in the registry</source>
        <translation>主机上或镜像仓库中的 %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>on the host already</source>
        <translation>已在主机上</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the registry has it</source>
        <translation>镜像仓库中有</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the registry answered with another digest, %1</source>
        <translation>镜像仓库返回了另一个 digest：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Neither the host nor the registry has this digest: check it (&apos;flashdeck pins HOST&apos; shows what a host runs), and the host&apos;s access to the registry.</source>
        <translation>主机和镜像仓库都没有这个 digest：请检查它（“flashdeck pins HOST”显示主机运行的版本）以及主机访问镜像仓库的能力。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deploypull.cpp" line="+32"/>
        <location line="+109"/>
        <source>RepoDigests contains %1</source>
        <translation>RepoDigests 包含 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pulled %1; RepoDigests has the pin</source>
        <translation>已拉取 %1；RepoDigests 中有该固定值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>already present; not pulled again</source>
        <translation>已存在；未重复拉取</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Remove the image on the host and pull again.</source>
        <translation>请删除主机上的镜像后重新拉取。</translation>
    </message>
    <message>
        <location line="-71"/>
        <source>; the size of 1 layer is not known yet</source>
        <translation>；有 1 层的大小尚未知</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; the sizes of %1 layers are not known yet</source>
        <translation>；有 %1 层的大小尚未知</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Free disk space on the host (the image is unpacked beside its download), then run again with --resume.</source>
        <translation>请在主机上腾出磁盘空间（镜像在下载位置旁解压），然后加 --resume 再运行。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The host&apos;s Docker could not fetch the image: check its access to the registry (DNS, proxy, firewall, a Docker Hub rate limit; &apos;docker pull %1&apos; on the host shows the same), then run again with --resume.</source>
        <translation>主机的 Docker 无法获取镜像：请检查它访问镜像仓库的能力（DNS、代理、防火墙、Docker Hub 限流；在主机上运行“docker pull %1”会看到同样的结果），然后加 --resume 再运行。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the pull was cut off after %1 of %2 bytes (%3)</source>
        <translation>拉取在 %2 字节中的 %1 字节处中断（%3）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Run again with --resume: the layers the host already unpacked are kept, the rest is fetched.</source>
        <translation>加 --resume 再运行：主机上已解压的层会保留，其余部分继续获取。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 GB downloaded, compressed (%2 of %3 layers were already there)</source>
        <translation>已下载 %1 GB（压缩后；%3 层中有 %2 层已存在）</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deployrunner.cpp" line="+11"/>
        <source>ROCm host: the GPU check in the image is NVIDIA&apos;s nvidia-smi</source>
        <translation>ROCm 主机：镜像内的 GPU 检查使用的是 NVIDIA 的 nvidia-smi</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Inside the pinned image, nvidia-smi lists %1 × %2</source>
        <translation>在固定的镜像内，nvidia-smi 列出 %1 × %2</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Check the image and the NVIDIA runtime.</source>
        <translation>请检查镜像和 NVIDIA 运行时。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Check the GPU list (change it if those GPUs are busy) and the NVIDIA runtime.</source>
        <translation>请检查 GPU 列表（如果这些 GPU 被占用就更换）以及 NVIDIA 运行时。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The container does not see the GPUs the profile needs: check the NVIDIA runtime and the GPU list.</source>
        <translation>容器看不到该配置所需的 GPU：请检查 NVIDIA 运行时和 GPU 列表。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/deployweights.cpp" line="+45"/>
        <source>The weights come from the Hub at the pinned revision: the server downloads them into ~/.cache/huggingface.</source>
        <translation>权重按固定的 revision 从 Hub 获取：服务器会将其下载到 ~/.cache/huggingface。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A ModelScope copy is used only after its files are verified</source>
        <translation>ModelScope 副本须在文件校验通过后才会使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SGLang loads every shard and the dspark/ draft from this folder</source>
        <translation>SGLang 从此目录加载每个分片和 dspark/ 草稿模型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no folder was given</source>
        <translation>没有给出目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name the folder on the host with --model-dir.</source>
        <translation>请用 --model-dir 指定主机上的目录。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Check that the folder is readable by the SSH user and not being written, then run again.</source>
        <translation>请确认该目录对 SSH 用户可读且没有正在写入，然后再运行。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>config.json, every shard model.safetensors.index.json names, complete, and the %1/ draft</source>
        <translation>config.json、model.safetensors.index.json 列出的每个分片都完整，且有 %1/ 草稿模型</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: there is no folder there (or it cannot be entered)</source>
        <translation>%1：那里没有目录（或无法进入）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: %2 shards and the %3/ draft, complete; %4 in %5 files</source>
        <translation>%1：%2 个分片和 %3/ 草稿模型，完整；%5 个文件共 %4</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>hf download recorded revision %1</source>
        <translation>hf download 记录的 revision 为 %1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Check free disk on the host, then download the revision again into the same folder: an interrupted download resumes. On a connected machine: %1</source>
        <translation>请检查主机的剩余磁盘，然后把该 revision 重新下载到同一目录：中断的下载会续传。在联网的机器上：%1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Pin the revision, then check the ModelScope copy against it file by file</source>
        <translation>固定 revision，然后逐个文件将 ModelScope 副本与之比对</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>the Hub answered revision %1 with commit %2</source>
        <translation>Hub 将 revision %1 解析为 commit %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Give the full 40-character commit id (&apos;flashdeck pins HOST&apos; shows what a host runs).</source>
        <translation>请给出完整的 40 位 commit id（“flashdeck pins HOST”显示主机运行的版本）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the Hub has no revision %1 of %2 (%3)</source>
        <translation>Hub 上没有 %2 的 revision %1（%3）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check the commit id (&apos;flashdeck pins HOST&apos; shows what a host runs; the model&apos;s history on the Hub lists the others).</source>
        <translation>请检查 commit id（“flashdeck pins HOST”显示主机运行的版本；Hub 上的模型历史列出其他版本）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A ModelScope copy is accepted only after comparing it with the pinned Hugging Face revision, which needs the Hub&apos;s file list: give the host access to the Hub (or HF_ENDPOINT to a mirror), or deploy offline from an hf download folder.</source>
        <translation>ModelScope 副本须与固定的 Hugging Face revision 比对后才会被接受，这需要 Hub 的文件列表：请让主机能访问 Hub（或把 HF_ENDPOINT 指向镜像站），或从 hf download 下载的目录离线部署。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Check the host&apos;s access to the Hugging Face Hub, or deploy offline from a pre-downloaded revision.</source>
        <translation>请检查主机访问 Hugging Face Hub 的能力，或从预先下载的 revision 离线部署。</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>a 40-hex commit</source>
        <translation>一个 40 位十六进制 commit</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>every file of %1@%2 in the ModelScope folder, same size%3</source>
        <translation>ModelScope 目录中 %1@%2 的每个文件，大小相同%3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> and sha256</source>
        <translation> 且 sha256 相同</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the Hub&apos;s file list could not be read: %1</source>
        <translation>无法读取 Hub 的文件列表：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Give the host access to the Hub (checking a ModelScope copy needs the pinned revision&apos;s file list), then run again.</source>
        <translation>请让主机能访问 Hub（校验 ModelScope 副本需要固定 revision 的文件列表），然后再运行。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The ModelScope copy is not the pinned revision: deploy from the Hub, or from an offline folder of revision %1: %2</source>
        <translation>ModelScope 副本不是固定的 revision：请从 Hub 部署，或从 revision %1 的离线目录部署：%2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The offline folder is the pin; hf download records its commit</source>
        <translation>离线目录即是固定值；hf download 会记录它的 commit</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>one 40-hex commit recorded by hf download</source>
        <translation>hf download 记录的一个 40 位十六进制 commit</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the folder does not record which revision it holds (no hf download metadata)</source>
        <translation>该目录没有记录它包含哪个 revision（没有 hf download 元数据）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>To pin it, download with the revision into the folder: %1</source>
        <translation>要固定它，请按 revision 下载到该目录：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the folder holds revision %1</source>
        <translation>该目录包含 revision %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Download revision %1 into the folder.</source>
        <translation>请把 revision %1 下载到该目录。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 holds %2@%3 (hf download metadata)</source>
        <translation>%1 包含 %2@%3（hf download 元数据）</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/journal.cpp" line="+41"/>
        <source>Cannot open the journal %1: %2.</source>
        <translation>无法打开日志记录 %1：%2。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Cannot write the journal %1: %2. Free some disk space and run again with --resume.</source>
        <translation>无法写入日志记录 %1：%2。请腾出磁盘空间，然后加 --resume 再运行。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> (The journal&apos;s last line is cut short; it is skipped when read.)</source>
        <translation> （日志记录的最后一行不完整；读取时会跳过。）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Cannot read the journal %1: %2.</source>
        <translation>无法读取日志记录 %1：%2。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The journal&apos;s last line was cut short (a crash while writing); it was skipped.</source>
        <translation>日志记录的最后一行不完整（写入时崩溃）；已跳过。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The journal %1 is damaged at line %2. Move it aside to start over.</source>
        <translation>日志记录 %1 在第 %2 行损坏。请把它移到别处后重新开始。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/pulledimages.cpp" line="+32"/>
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 is damaged (not the list of images Flashdeck pulled): move it aside; prune then removes nothing it cannot prove is Flashdeck&apos;s.</source>
        <translation>%1 已损坏（不是 Flashdeck 拉取的镜像列表）：请把它移到别处；之后 prune 不会删除任何无法证明属于 Flashdeck 的东西。</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/readyprogress.cpp" line="+101"/>
        <source>Starting the server; the weights cache holds %1 of %2 GB</source>
        <translation>正在启动服务器；权重缓存已有 %2 GB 中的 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Starting the server (%1 so far)</source>
        <translation>正在启动服务器（已用 %1）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Downloading the weights (%1 so far)</source>
        <translation>正在下载权重（已用 %1）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Weights in the cache (%1 GB); compiling kernels and loading</source>
        <translation>权重已在缓存中（%1 GB）；正在编译内核并加载</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Downloading the weights: %1 of %2 GB</source>
        <translation>正在下载权重：%2 GB 中的 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · %1 MB/s · about %2 left</source>
        <translation> · %1 MB/s · 约剩 %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Loading the weights into the GPUs: %1 %</source>
        <translation>正在将权重加载到 GPU：%1 %</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>HTTP server up; warming up (/health answers 503 until ready)</source>
        <translation>HTTP 服务器已启动；正在预热（就绪前 /health 返回 503）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP server up on %1; warming up (/health answers 503 until ready)</source>
        <translation>HTTP 服务器已在 %1 启动；正在预热（就绪前 /health 返回 503）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 GB of weights downloaded in %2</source>
        <translation>%2 内下载了 %1 GB 权重</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>HTTP server up after %1</source>
        <translation>HTTP 服务器在 %1 后启动</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>ready after %1</source>
        <translation>%1 后就绪</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>; weights cache %1 of %2 GB</source>
        <translation>；权重缓存 %2 GB 中的 %1</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/upgradeplan.cpp" line="+36"/>
        <source>The record of an unfinished upgrade, %1, is damaged (%2): check what the host runs with &apos;flashdeck status&apos;, then move the file aside.</source>
        <translation>未完成升级的记录 %1 已损坏（%2）：请用“flashdeck status”查看主机运行的版本，然后把该文件移到别处。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>not JSON</source>
        <translation>不是 JSON</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/upgradesetup.cpp" line="+136"/>
        <source> An upgrade starts from a deployment: &apos;flashdeck deploy %1&apos; first.</source>
        <translation> 升级须从已有部署开始：请先运行“flashdeck deploy %1”。</translation>
    </message>
    <message>
        <location line="-57"/>
        <source>No interrupted upgrade on %1 to resume (&apos;flashdeck pins %1&apos; shows what it runs).</source>
        <translation>%1 上没有可继续的中断升级（“flashdeck pins %1”显示它运行的版本）。</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>An upgrade of %1 (%2) was interrupted in its %3: finish it with &apos;flashdeck upgrade %1 --resume&apos; first.</source>
        <translation>%1 的升级（%2）在其%3中被中断：请先用“flashdeck upgrade %1 --resume”完成它。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The last deployment of %1 did not finish: &apos;flashdeck deploy %1 --resume&apos; first, so the rollback has verified pins to return to.</source>
        <translation>%1 的上次部署没有完成：请先运行“flashdeck deploy %1 --resume”，这样回滚才有已验证的固定版本可回。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The pins file is for profile %1; %2 runs %3. An upgrade keeps the profile: undeploy and deploy --pins to change it.</source>
        <translation>该固定文件属于配置 %1；%2 运行的是 %3。升级保持配置不变：如需更换，请先 undeploy 再用 deploy --pins 部署。</translation>
    </message>
    <message>
        <location line="+103"/>
        <source>No acknowledgement of the %1 is recorded for %2 (or its summary changed): run &apos;flashdeck license&apos; and deploy once with --accept-license.</source>
        <translation>%2 没有对 %1 的确认记录（或其摘要已变化）：请运行“flashdeck license”，并加 --accept-license 部署一次。</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>%1 at %2, summary sha256 %3</source>
        <translation>%1，时间 %2，摘要 sha256 %3</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>the deployment</source>
        <translation>此次部署</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The generator&apos;s command the deployment runs is refused now: %1</source>
        <translation>此次部署运行的生成器命令现在被拒绝：%1</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/weightsfolder.cpp" line="+31"/>
        <source>and %1 more</source>
        <translation>及另外 %1 个</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>unexpected listing line: %1</source>
        <translation>意外的列表行：%1</translation>
    </message>
    <message>
        <location line="+304"/>
        <source>unexpected size in: %1</source>
        <translation>意外的大小：%1</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>the listing of %1 is cut short (was the folder changing?)</source>
        <translation>%1 的列表被截断（目录是否正在变化？）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>the listing ended early (no END line): the connection dropped or a tool failed</source>
        <translation>列表提前结束（没有 END 行）：连接断开或工具失败</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 could not be read</source>
        <translation>无法读取 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 is not a safetensors file (header length %2)</source>
        <translation>%1 不是 safetensors 文件（文件头长度 %2）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 is truncated inside its header (%2 of %3 bytes)</source>
        <translation>%1 在文件头内被截断（%3 字节中的 %2 字节）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 has a damaged header (not JSON)</source>
        <translation>%1 的文件头已损坏（不是 JSON）</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 is truncated: %2 of %3 bytes</source>
        <translation>%1 被截断：%3 字节中的 %2 字节</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 has %2 bytes more than its header describes (damaged)</source>
        <translation>%1 比其文件头描述的多出 %2 字节（已损坏）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>there is no folder there (or it cannot be entered)</source>
        <translation>那里没有目录（或无法进入）</translation>
    </message>
    <message>
        <location line="-305"/>
        <source>config.json is missing: this is not a model folder, or the copy is incomplete</source>
        <translation>缺少 config.json：这不是模型目录，或副本不完整</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>config.json is not valid JSON (damaged or cut short)</source>
        <translation>config.json 不是有效的 JSON（已损坏或被截断）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 has no weight_map (damaged or cut short)</source>
        <translation>%1 没有 weight_map（已损坏或被截断）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1: neither model.safetensors.index.json nor model.safetensors is there</source>
        <translation>%1：既没有 model.safetensors.index.json 也没有 model.safetensors</translation>
    </message>
    <message>
        <location line="+291"/>
        <source>the checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 of the %2 shards the index names are missing: %3</source>
        <translation>索引列出的 %2 个分片中缺少 %1 个：%3</translation>
    </message>
    <message>
        <location line="-255"/>
        <source>the DSpark draft is bundled in the checkpoint (dspark_* keys in config.json)</source>
        <translation>DSpark 草稿模型已打包在检查点中（config.json 中的 dspark_* 键）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no DSpark draft: the %1 subfolder is missing and config.json has no dspark_* keys (SGLang finds the draft there)</source>
        <translation>没有 DSpark 草稿模型：缺少 %1 子目录，且 config.json 中没有 dspark_* 键（SGLang 在那里查找草稿模型）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1config.json is missing</source>
        <translation>缺少 %1config.json</translation>
    </message>
    <message>
        <location line="+252"/>
        <source>the draft&apos;s shards are missing: %1</source>
        <translation>缺少草稿模型的分片：%1</translation>
    </message>
    <message>
        <location line="-235"/>
        <source>%1 files differ in content (sha256) from what hf download recorded: %2</source>
        <translation>%1 个文件的内容（sha256）与 hf download 记录的不同：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 safetensors files match the sha256 hf download recorded</source>
        <translation>%1 个 safetensors 文件与 hf download 记录的 sha256 一致</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>the files come from %1 different revisions (%2): download one revision into an empty folder</source>
        <translation>这些文件来自 %1 个不同的 revision（%2）：请将同一个 revision 下载到空目录</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no hf download metadata (.cache/huggingface/download): the folder does not say which revision it holds</source>
        <translation>没有 hf download 元数据（.cache/huggingface/download）：该目录无法说明它包含哪个 revision</translation>
    </message>
    <message>
        <location line="+214"/>
        <source>the Hub&apos;s file list is not a JSON array</source>
        <translation>Hub 的文件列表不是 JSON 数组</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1 (%2 bytes, the revision has %3)</source>
        <translation>%1（%2 字节，该 revision 中为 %3）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>the Hub listed no files for the pinned revision</source>
        <translation>Hub 没有列出固定 revision 的任何文件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 files of the pinned revision are missing: %2</source>
        <translation>固定 revision 的文件中缺少 %1 个：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 files differ in size from the pinned revision: %2</source>
        <translation>%1 个文件的大小与固定 revision 不同：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 files differ in content (sha256) from the pinned revision: %2</source>
        <translation>%1 个文件的内容（sha256）与固定 revision 不同：%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>files the revision does not have (ignored): %1</source>
        <translation>该 revision 中没有的文件（已忽略）：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 files match the pinned revision by name and size</source>
        <translation>%1 个文件的名称和大小与固定 revision 一致</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 files match the pinned revision by name, size and sha256</source>
        <translation>%1 个文件的名称、大小和 sha256 与固定 revision 一致</translation>
    </message>
    <message>
        <location filename="../../backend/deploy/weightsfit.cpp" line="+43"/>
        <source>TP %1 × %2 × --mem-fraction-static %3 = %4</source>
        <translation>TP %1 × %2 × --mem-fraction-static %3 = %4</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the weights (%1) do not fit a service&apos;s static memory (%2): the server would stop after the pull and the download</source>
        <translation>权重（%1）放不进一个服务的静态显存（%2）：服务器会在拉取镜像和下载权重之后才停止</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>a service&apos;s static memory (%1) holds the weights (%2) and leaves about %3 for its KV pool</source>
        <translation>一个服务的静态显存（%1）能容纳权重（%2），并为其 KV 池留下约 %3</translation>
    </message>
</context>
<context>
    <name>DeployPage</name>
    <message>
        <location filename="../../ui/pages/deploypage.cpp" line="+55"/>
        <source>Use the suggestion</source>
        <translation>采用建议</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Retry step</source>
        <translation>重试此步骤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export runbook…</source>
        <translation>导出 runbook…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Upgrade…</source>
        <translation>升级…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open to the team…</source>
        <translation>向团队开放…</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>Put a TLS gateway in front of the server: allowed networks, the API key, limits</source>
        <translation>在服务器前放置 TLS 网关：放行的网络、API 密钥、限制</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Host and profile</source>
        <translation>主机与配置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add host…</source>
        <translation>添加主机…</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Profile:</source>
        <translation>配置：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The Low-Latency recipe&apos;s flags, as the Cookbook gives them</source>
        <translation>低延迟配方的参数，与 Cookbook 给出的一致</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Image:</source>
        <translation>镜像：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One GPU per TP rank, as nvidia-smi numbers them (services in order). Change the list when those GPUs are busy.</source>
        <translation>每个 TP rank 一块 GPU，按 nvidia-smi 的编号（按服务顺序）。这些 GPU 被占用时请修改列表。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>GPUs:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>if busy</source>
        <translation>如被占用</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The port the server listens on, on the host&apos;s loopback (the router&apos;s for a profile with one). Chat, status and the runbook use the port recorded here.</source>
        <translation>服务器在主机回环地址上监听的端口（有 Router 的配置则为 Router 的端口）。聊天、状态和 runbook 都使用这里记录的端口。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Move this host&apos;s deployment to another image digest or model revision; on any failure it rolls back to the current pins</source>
        <translation>将此主机的部署迁移到另一个镜像 digest 或模型 revision；任何失败都会回滚到当前的固定版本</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run the plan again: each step checks what is there; nothing is pulled or started twice</source>
        <translation>重新运行计划：每个步骤都会检查已有内容；不会重复拉取或启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run again from the failed step&apos;s checks (earlier steps reuse what they found)</source>
        <translation>从失败步骤的检查处重新运行（之前的步骤复用已得到的结果）</translation>
    </message>
    <message>
        <location line="-112"/>
        <source>Log (live, classified)</source>
        <translation>日志（实时，已分类）</translation>
    </message>
    <message>
        <location line="+153"/>
        <source>Export runbook</source>
        <translation>导出 runbook</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shell scripts (*.sh)</source>
        <translation>Shell 脚本（*.sh）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Runbook written to %1. Run it on the host with FLASHDECK_API_KEY set.</source>
        <translation>runbook 已写入 %1。请在主机上设置 FLASHDECK_API_KEY 后运行。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The model&apos;s licence, acknowledged by you</source>
        <translation>模型许可证，由你确认</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>acknowledged for %1 use by %2</source>
        <translation>已由 %2 确认用于%1用途</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 · SIMULATED</source>
        <translation>%1 · 模拟</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No hosts yet: add one</source>
        <translation>还没有主机：请添加一台</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>A deployment is running on %1: stop it before switching hosts.</source>
        <translation>%1 上正在运行部署：切换主机前请先停止。</translation>
    </message>
    <message>
        <location line="+118"/>
        <source>Suggested: %1</source>
        <translation>建议：%1</translation>
    </message>
    <message>
        <location filename="../../ui/deploy/profilecard.cpp" line="+60"/>
        <source>&lt;span style=&apos;color:#1a9850&apos;&gt;✓ Verified upstream&lt;/span&gt; — by the SGLang Cookbook, not independently re-tested</source>
        <translation>&lt;span style=&apos;color:#1a9850&apos;&gt;✓ 已经上游验证&lt;/span&gt; —— 由 SGLang Cookbook 验证，未经独立复测</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;span style=&apos;color:#d73027&apos;&gt;✗ No command on the page&lt;/span&gt; — Flashdeck launches what SGLang&apos;s configuration generator prints for this hardware (paste it above); B300 flags are not reused</source>
        <translation>&lt;span style=&apos;color:#d73027&apos;&gt;✗ 页面上没有命令&lt;/span&gt; —— Flashdeck 启动 SGLang 配置生成器为此硬件生成的命令（粘贴到上方）；不沿用 B300 参数</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;span style=&apos;color:#e69f00&apos;&gt;⚠ Unverified&lt;/span&gt; — assembled from the published recipe, not verified upstream</source>
        <translation>&lt;span style=&apos;color:#e69f00&apos;&gt;⚠ 未经验证&lt;/span&gt; —— 由已发布的配方组合而成，未经上游验证</translation>
    </message>
    <message>
        <location filename="../../ui/pages/deploypage.cpp" line="+11"/>
        <source>image about %1 unpacked</source>
        <translation>镜像解压后约 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the pinned image %1 unpacked</source>
        <translation>固定的镜像解压后 %1</translation>
    </message>
    <message>
        <location filename="../../ui/deploy/profilecard.cpp" line="-51"/>
        <source>&lt;p&gt;GPUs: %1 × %2 · TP %3&lt;br&gt;Disk: more than %4 free (weights %5 + %6)&lt;br&gt;Expected KV pool: %7&lt;/p&gt;</source>
        <translation>&lt;p&gt;GPU：%1 × %2 · TP %3&lt;br&gt;磁盘：需要超过 %4 空闲（权重 %5 + %6）&lt;br&gt;预期 KV 池：%7&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (%2 GB each)</source>
        <translation>%1（每块 %2 GB）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>≈ %1</source>
        <translation>≈ %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not published</source>
        <translation>未公布</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;p&gt;On a host with %1 or more %2 GPUs: one TP %3 service per %3 GPUs behind the SGLang Router (port %4, --policy %5), so none idles. Change the GPU list to run on exactly those.&lt;/p&gt;</source>
        <translation>&lt;p&gt;在有 %1 个或更多 %2 GPU 的主机上：每 %3 个 GPU 运行一个 TP %3 服务，位于 SGLang Router（端口 %4，--policy %5）之后，不让任何 GPU 闲置。修改 GPU 列表即可只在这些 GPU 上运行。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&lt;p&gt;&lt;b&gt;Image:&lt;/b&gt; yours to confirm or supply. Suggested: %1 — %2.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;镜像：&lt;/b&gt;需由你确认或提供。建议：%1 —— %2。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&lt;p style=&apos;background-color:rgba(230,159,0,0.18); padding:4px&apos;&gt;&lt;b&gt;⚠ Experimental upstream.&lt;/b&gt; %1&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;background-color:rgba(230,159,0,0.18); padding:4px&apos;&gt;&lt;b&gt;⚠ 上游状态为实验性。&lt;/b&gt; %1&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&lt;p&gt;&lt;small&gt;GPU memory per GPU: %1.&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;small&gt;每块 GPU 的显存：%1。&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;p&gt;&lt;small&gt;MiniMax-M3.1-Flash: a multimodal mixture-of-experts model, about 428B parameters with about 23B active per token, 1M-token context, MSA sparse attention and a bundled DSpark draft, for servers, not consumer machines. “23B active” does not mean 23B of GPU memory: every weight is loaded or sharded across the GPUs.&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;small&gt;MiniMax-M3.1-Flash：多模态混合专家模型，总参数约 428B，每个 token 激活约 23B，上下文 1M token，采用 MSA 稀疏注意力并随附 DSpark 草稿模型，面向服务器而非消费级设备。“23B 激活参数”不代表只需 23B 的显存：所有权重都要加载或分片到各块 GPU 上。&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&lt;p&gt;&lt;small&gt;Upstream: &lt;a href=&apos;https://huggingface.co/%1&apos;&gt;model card&lt;/a&gt; (weights, parameters, licence) · &lt;a href=&apos;https://docs.sglang.io/&apos;&gt;SGLang documentation&lt;/a&gt; (MiniMax-M3.1 Cookbook: hardware matrix, configuration generator) · &lt;a href=&apos;https://docs.sglang.io/cookbook/autoregressive/MiniMax/MiniMax-M3&apos;&gt;MiniMax-M3 self-hosting baseline&lt;/a&gt;&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;small&gt;上游：&lt;a href=&apos;https://huggingface.co/%1&apos;&gt;模型卡&lt;/a&gt;（权重、参数、许可证）· &lt;a href=&apos;https://docs.sglang.io/&apos;&gt;SGLang 文档&lt;/a&gt;（MiniMax-M3.1 Cookbook：硬件矩阵、配置生成器）· &lt;a href=&apos;https://docs.sglang.io/cookbook/autoregressive/MiniMax/MiniMax-M3&apos;&gt;MiniMax-M3 自托管部署基线&lt;/a&gt;&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../ui/pages/deploypagesteps.cpp" line="+163"/>
        <source>Undeployed on %1: its containers were stopped and removed. Run deploys it again.</source>
        <translation>已于 %1 撤下部署：其容器已停止并删除。点击“运行”可重新部署。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>interrupted: Flashdeck stopped while this step ran. Resume checks it again.</source>
        <translation>已中断：此步骤运行时 Flashdeck 停止了。“继续”会重新检查它。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The last run on %1, from its journal. Resume continues it; nothing is pulled or started twice.</source>
        <translation>%1 上的上次运行，取自其日志记录。“继续”会接着运行；不会重复拉取或启动。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No host selected.</source>
        <translation>未选择主机。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/deploypagerun.cpp" line="+63"/>
        <source>Pick a host and a profile first.</source>
        <translation>请先选择主机和配置。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 needs its flags: %2</source>
        <translation>%1 需要它的参数：%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 Press “Use the suggestion” to confirm it, or type your own image.</source>
        <translation>%1 按“采用建议”确认，或输入你自己的镜像。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is not connected: connect it from the host bar (its key and login are checked there), then Run again.</source>
        <translation>%1 未连接：请从主机栏连接它（在那里检查它的密钥和登录），然后再运行。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Acknowledge the licence for %1 to continue; the run starts when you do.</source>
        <translation>请确认 %1 的许可证以继续；确认后运行随即开始。</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>Deployed and verified on %1. The journal and manifest are in %2.</source>
        <translation>已在 %1 上部署并验证。日志记录和清单位于 %2。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped at the failed step: its fix is on the right. Resume when it is done.</source>
        <translation>已在失败的步骤处停止：修复方法见右侧。修复后点“继续”。</translation>
    </message>
    <message>
        <location line="-21"/>
        <location line="+95"/>
        <source>Running on %1…</source>
        <translation>正在 %1 上运行…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The image field says %1 and the command&apos;s image is %2: give one.</source>
        <translation>镜像栏填写的是 %1，而命令中的镜像是 %2：只给出一个。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Stopping: what runs is cancelled and what is left on the host is reported…</source>
        <translation>正在停止：取消正在运行的操作，并报告留在主机上的内容…</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>%1 is not connected: connect it from the host bar, then upgrade again.</source>
        <translation>%1 未连接：请从主机栏连接它，然后再升级。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 runs these pins already.</source>
        <translation>%1 已在运行这些固定版本。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Upgrade to %1: failed at %2</source>
        <translation>升级到 %1：失败于“%2”</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Upgrading %1: %2…</source>
        <translation>正在升级 %1：%2…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The upgrade failed at %1 (%2). Rolling back to %3…</source>
        <translation>升级在 %1 失败（%2）。正在回滚到 %3…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Upgraded %1 to %2, every step verified.</source>
        <translation>已将 %1 升级到 %2，每个步骤都已验证。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The upgrade failed at %1 (%2). %3 is back on its old pins %4, verified again.</source>
        <translation>升级在 %1 失败（%2）。%3 已回到旧的固定版本 %4，并已重新验证。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The upgrade failed at %1 and the rollback failed too: fix what the failed step says, then Upgrade… resumes the rollback.</source>
        <translation>升级在 %1 失败，回滚也失败了：请按失败步骤的提示修复，然后点“升级…”继续回滚。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Stopped. Upgrade… resumes the %1.</source>
        <translation>已停止。“升级…”会继续%1。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>This build has no recipe.</source>
        <translation>此版本没有配方。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
</context>
<context>
    <name>DeploySession</name>
    <message>
        <location filename="../../backend/deploy/deploysession.cpp" line="+50"/>
        <source>A deployment of %1 runs already, from another window or a terminal. Wait for it to end (its steps go to %2), or stop it where it runs; then run this again.</source>
        <translation>%1 的部署已在另一个窗口或终端中运行。请等待其结束（其步骤写入 %2），或在运行处停止它；然后再运行此操作。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 Another run of %2 would not be kept out while this one runs.</source>
        <translation>%1 此次运行期间，无法阻止 %2 的另一次运行。</translation>
    </message>
    <message>
        <location line="+146"/>
        <source>Could not write the manifest %1: %2. The journal beside it has every step.</source>
        <translation>无法写入清单 %1：%2。旁边的日志记录包含每个步骤。</translation>
    </message>
</context>
<context>
    <name>Docker</name>
    <message>
        <location filename="../../backend/docker/dockerclient.cpp" line="+125"/>
        <source>the Docker tunnel is closed</source>
        <translation>Docker 隧道已关闭</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>No answer from the Docker Engine through the SSH tunnel: %1. Is Docker installed and running on the host (docker system dial-stdio)?</source>
        <translation>通过 SSH 隧道没有收到 Docker Engine 的应答：%1。主机上是否已安装并运行 Docker（docker system dial-stdio）？</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>The host&apos;s Docker Engine speaks API %1; Flashdeck needs %2 or newer (Docker 20.10). Upgrade Docker on the host.</source>
        <translation>主机的 Docker Engine 使用 API %1；Flashdeck 需要 %2 或更新版本（Docker 20.10）。请升级主机上的 Docker。</translation>
    </message>
    <message>
        <location filename="../../backend/docker/imageref.cpp" line="+24"/>
        <source>The image is empty: give NAME:TAG, e.g. lmsysorg/sglang:dev.</source>
        <translation>镜像为空：请给出 NAME:TAG，例如 lmsysorg/sglang:dev。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&quot;%1&quot; names a digest: give NAME:TAG; the pin step resolves the digest and records it.</source>
        <translation>“%1”指定的是 digest：请给出 NAME:TAG；固定步骤会解析并记录 digest。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>&quot;%1&quot; is not an image reference docker accepts: NAME:TAG, the name in lower case (e.g. lmsysorg/sglang:dev or registry.example:5000/team/sglang:rocm).</source>
        <translation>“%1”不是 docker 接受的镜像引用：NAME:TAG，名称为小写（例如 lmsysorg/sglang:dev 或 registry.example:5000/team/sglang:rocm）。</translation>
    </message>
    <message>
        <location filename="../../backend/docker/pullprogress.cpp" line="+80"/>
        <source>the Docker daemon reported an error without a message</source>
        <translation>Docker 守护进程报告了一个没有消息的错误</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>more than %1 layers: the rest are not counted</source>
        <translation>超过 %1 层：其余的不计入</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>, retrying %1 (%2 so far)</source>
        <translation>，正在第 %1 次重试（已用 %2）</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>already there</source>
        <translation>已存在</translation>
    </message>
</context>
<context>
    <name>DockerState</name>
    <message>
        <location filename="../../ui/fleet/fleetmodel.cpp" line="+22"/>
        <source>created</source>
        <translation>已创建</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restarting</source>
        <translation>重启中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removing</source>
        <translation>删除中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>exited</source>
        <translation>已退出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dead</source>
        <translation>已失效</translation>
    </message>
</context>
<context>
    <name>ExchangeView</name>
    <message>
        <location filename="../../ui/playground/exchangeview.cpp" line="+42"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change this message and send it again (the replies after it are dropped)</source>
        <translation>修改这条消息并重新发送（其后的回复会被丢弃）</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Reasoning (%1 tokens)</source>
        <translation>推理（%1 个 token）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reasoning… (%1 words so far)</source>
        <translation>正在推理…（目前 %1 词）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reasoning (%1 words)</source>
        <translation>推理（%1 词）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>streaming…</source>
        <translation>正在流式输出…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>first token %1 ms</source>
        <translation>首个 token %1 ms</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 tokens/s%2</source>
        <translation>%1 tokens/s%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (counted)</source>
        <translation> （本地统计）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 tokens: %2 reasoning, %3 answer</source>
        <translation>%1 个 token：推理 %2，回答 %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>finish: %1</source>
        <translation>结束原因：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>KV %1 %</source>
        <translation>KV %1 %</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 queued</source>
        <translation>排队 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>stopped — the partial answer is kept</source>
        <translation>已停止——部分回答已保留</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>thinking was off, yet the server returned reasoning</source>
        <translation>思考已关闭，服务器却返回了推理内容</translation>
    </message>
</context>
<context>
    <name>Expose</name>
    <message>
        <location filename="../../backend/expose/gatewayconfig.cpp" line="+21"/>
        <source>The gateway cannot use the path %1: it must be absolute, without quotes, $, ; or braces.</source>
        <translation>网关无法使用路径 %1：它必须是绝对路径，且不含引号、$、; 或花括号。</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewaymediahost.cpp" line="+17"/>
        <source>%1 %2: %3</source>
        <translation>%1 %2：%3</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>give the host name alone, as images.example.org (no scheme, port or path: only https on port 443 is let through).</source>
        <translation>只写主机名，如 images.example.org（不带协议、端口或路径：只放行 443 端口上的 https）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>an address is never allowed (it could be the host&apos;s own network); allow the image server&apos;s name.</source>
        <translation>从不允许地址（它可能属于主机自己的网络）；请允许图片服务器的名称。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>not a host name: write it as images.example.org, or *.example.org for every name under example.org.</source>
        <translation>不是主机名：请写成 images.example.org，或用 *.example.org 表示 example.org 下的所有名称。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>a name without a dot is looked up in the host&apos;s own network; allow the image server&apos;s full name.</source>
        <translation>不带点的名称会在主机自己的网络中解析；请允许图片服务器的完整名称。</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewayoptions.cpp" line="+24"/>
        <source>%1 %2 is not a TCP port: give a number from 1 to 65535.</source>
        <translation>%1 %2 不是 TCP 端口：请给出 1 到 65535 之间的数字。</translation>
    </message>
    <message>
        <location line="+62"/>
        <location line="+157"/>
        <source>Timeouts must be between 1 second and 24 hours.</source>
        <translation>超时必须在 1 秒到 24 小时之间。</translation>
    </message>
    <message>
        <location line="-135"/>
        <source>Say who may connect with --allow CIDR (repeat it for each network, e.g. --allow 10.20.0.0/16). The deployment page asks for the source networks to be restricted before a model server is opened beyond its host: the API key alone should not be the only thing between the internet and your GPUs.</source>
        <translation>请用 --allow CIDR 指定谁可以连接（每个网段重复一次，例如 --allow 10.20.0.0/16）。部署页面要求在模型服务器对主机之外开放之前限制来源网段：不应让 API 密钥成为互联网与你的 GPU 之间唯一的屏障。</translation>
    </message>
    <message>
        <location line="-77"/>
        <source>%1 must let at least one request through (1/s or 1/m and up); a rate of 0 would refuse every request.</source>
        <translation>%1 必须至少放行一个请求（1/s 或 1/m 及以上）；速率为 0 会拒绝所有请求。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 %2 is not an address of the host: give one of its IP addresses, or 0.0.0.0 for all of them.</source>
        <translation>%1 %2 不是该主机的地址：请填写主机的某个 IP 地址，或用 0.0.0.0 表示全部地址。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The gateway cannot listen on port %1: the server itself uses it on the host&apos;s loopback. Choose another %2.</source>
        <translation>网关不能监听端口 %1：服务器本身在主机回环地址上使用它。请另选一个%2。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 takes a number from 0 to 100000.</source>
        <translation>%1 取 0 到 100000 之间的数字。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 takes a number from 1 to 100000.</source>
        <translation>%1 取 1 到 100000 之间的数字。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 must be between 1k and 256m: the gateway holds each request in memory while it checks the messages&apos; media.</source>
        <translation>%1 必须在 1k 到 256m 之间：网关在检查消息中的媒体时会把每个请求保存在内存中。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Name the networks your colleagues and services connect from (as 10.20.0.0/16): the gateway lets only them in. The deployment page asks for the source networks to be restricted before a model server is reachable beyond its host.</source>
        <translation>填写同事和服务发起连接的网络（如 10.20.0.0/16）：网关只放行它们。部署页面要求在模型服务器可从主机之外访问之前限制来源网络。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 %2 is not in the form the gateway compares (%3).</source>
        <translation>%1 %2 不是网关比较时使用的形式（%3）。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>the listen address</source>
        <translation>监听地址</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the server&apos;s port</source>
        <translation>服务器端口</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the rate per client</source>
        <translation>每个客户端的速率</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the burst</source>
        <translation>突发量</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>in flight at most</source>
        <translation>最大并发数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the largest body</source>
        <translation>最大请求体</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the media host</source>
        <translation>媒体主机</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 %2 is not a rate: write requests per second or per minute, as 10/s or 600/m.</source>
        <translation>%1 %2 不是速率：请写每秒或每分钟的请求数，如 10/s 或 600/m。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 %2 is not a size: write a number with k, m or g (binary units, as nginx reads them), e.g. 32m or 512k.</source>
        <translation>%1 %2 不是大小：请写数字加 k、m 或 g（按 nginx 的二进制单位），例如 32m 或 512k。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 %2 is far too large.</source>
        <translation>%1 %2 太大了。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 %2 is not a duration: write seconds, or a number with s, m or h, e.g. 60s or 10m.</source>
        <translation>%1 %2 不是时长：请写秒数，或数字加 s、m 或 h，例如 60s 或 10m。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 %2: give a whole number from %3 to %4.</source>
        <translation>%1 %2：请给出 %3 到 %4 之间的整数。</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewaypreview.cpp" line="+18"/>
        <source>a self-signed certificate made on the host; its SHA-256 fingerprint is shown once exposed, for clients to pin</source>
        <translation>在主机上生成的自签名证书；开放后会显示其 SHA-256 指纹，供客户端固定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>your certificate and key (the key is copied with mode 0600 and never logged)</source>
        <translation>你的证书和私钥（私钥以 0600 权限复制，从不写入日志）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Listens on %1 (TLS: %2) and passes requests to the server on the host&apos;s loopback, port %3.
</source>
        <translation>监听 %1（TLS：%2），并把请求转发给主机回环地址上端口 %3 的服务器。
</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Who may connect: %1; every other address gets 403. A firewall or security group in front of the host is still worth having.
The API key stays required: without &quot;Authorization: Bearer KEY&quot; the gateway answers 401 before the server sees the request, and the server checks the key itself.
</source>
        <translation>谁可以连接：%1；其他地址一律得到 403。主机前方仍值得配置防火墙或安全组。
API 密钥仍然必需：没有“Authorization: Bearer KEY”时，网关在服务器看到请求之前就返回 401，服务器本身也会检查密钥。
</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Limits:
  rate       %1 per client address, burst %2, then 429 (a chat turn is one request; an agent&apos;s parallel tool calls come in bursts)
  in flight  %3 requests across all clients, then 503 (more would only wait in the server&apos;s queue)
  body       %4 MiB, then 413 (the Playground&apos;s largest image, 20 MiB, is about 27 MiB as base64)
  timeouts   %5 s between reads from a client; %6 s waiting for the server (an answer without streaming can think for minutes)
</source>
        <translation>限制：
  速率      每个客户端地址 %1，突发 %2，超出返回 429（一轮对话是一个请求；智能体的并行工具调用会成批到来）
  并发      所有客户端合计 %3 个请求，超出返回 503（更多请求只会在服务器队列中等待）
  请求体    %4 MiB，超出返回 413（调试台允许的最大图片 20 MiB，base64 后约 27 MiB）
  超时      客户端两次读取之间 %5 秒；等待服务器 %6 秒（不使用流式输出的回答可能要思考数分钟）
</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>none, so only data: URIs pass</source>
        <translation>无，因此只放行 data: URI</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refused before the server sees them:
  media URLs in messages (image_url, video_url, audio_url) other than https on port 443 to an allowed host; allowed hosts: %1. Address literals (private, loopback, link-local or any other), http:, file: and local paths are always refused; data: URIs pass within the body limit
  any path but /v1/ and /health (404)
Not logged: API keys, prompts, media or answers (the log has the method, path, status, sizes and time).
Left to you: the server fetches allowed media URLs itself, so the gateway does not bound their redirects, download time, bytes or pixels; allow only hosts you trust.
</source>
        <translation>在服务器看到之前即被拒绝：
  消息中的媒体 URL（image_url、video_url、audio_url），除非是指向允许主机的 443 端口 https；允许的主机：%1。地址字面量（私有、回环、链路本地或任何其他地址）、http:、file: 和本地路径一律拒绝；data: URI 在请求体上限内放行
  /v1/ 和 /health 以外的任何路径（404）
不写入日志：API 密钥、提示词、媒体和回答（日志只有方法、路径、状态码、大小和耗时）。
仍由你负责：允许的媒体 URL 由服务器自己获取，因此网关不限制其重定向、下载时间、字节数或像素；只允许你信任的主机。
</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewaycertificate.cpp" line="+22"/>
        <source>%1 holds no PEM certificate (&quot;-----BEGIN CERTIFICATE-----&quot;).</source>
        <translation>%1 中没有 PEM 证书（“-----BEGIN CERTIFICATE-----”）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The certificate in %1 has a public key Flashdeck cannot read.</source>
        <translation>%1 中证书的公钥 Flashdeck 无法读取。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>The certificate expired on %1: clients would refuse it. Renew it, or use --self-signed.</source>
        <translation>证书已于 %1 过期：客户端会拒绝它。请续期，或使用 --self-signed。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The certificate is valid only from %1: clients would refuse it until then (is this machine&apos;s clock right?).</source>
        <translation>证书要到 %1 才生效：在此之前客户端会拒绝它（本机时钟是否正确？）。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Warning: the certificate&apos;s subjectAltName names %1, not %2, the address in the gateway&apos;s URL. Browsers, curl and the OpenAI clients check that name and will reject the connection (curl: &quot;no alternative certificate subject name matches&quot;). Get a certificate for %2, or expose with --listen set to an address it names; a client that cannot wait can pin the key (--pinnedpubkey) and skip the name check (curl --insecure).</source>
        <translation>警告：证书的 subjectAltName 列出的是 %1，而不是网关 URL 使用的地址 %2。浏览器、curl 和 OpenAI 客户端会检查该名称并拒绝连接（curl：“no alternative certificate subject name matches”）。请为 %2 申请证书，或用 --listen 设为证书所列的地址再开放；等不及的客户端可以固定公钥（--pinnedpubkey）并跳过名称检查（curl --insecure）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>nothing</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewayplacement.cpp" line="+44"/>
        <source>exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>the certificate file</source>
        <translation>证书文件</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Looking at the host: its home, openssl, the ports in use</source>
        <translation>正在查看主机：主目录、openssl、已占用的端口</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not look at the host: %1</source>
        <translation>无法查看主机：%1</translation>
    </message>
    <message>
        <location line="+17"/>
        <location filename="../../backend/expose/gatewayremoval.cpp" line="+29"/>
        <source>The host&apos;s Docker did not list its containers: %1</source>
        <translation>主机的 Docker 未能列出其容器：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A gateway is already placed on this host. Run &apos;flashdeck unexpose %1&apos; first, then expose with the options you want.</source>
        <translation>此主机上已有网关。请先运行 “flashdeck unexpose %1”，再以所需选项开放。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The host has no &apos;ss&apos; (iproute2), so Flashdeck cannot see whether port %1 is free. Install iproute2 on the host and expose again.</source>
        <translation>主机上没有 “ss”（iproute2），Flashdeck 无法判断端口 %1 是否空闲。请在主机上安装 iproute2 后重新开放。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Port %1 is taken on the host (%2 is listening there): the gateway could not listen on %3:%1. Choose another %4, or free it. Nothing was changed.</source>
        <translation>主机上的端口 %1 已被占用（%2 正在监听）：网关无法监听 %3:%1。请另选一个%4，或释放该端口。未做任何改动。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The host has no openssl, which makes the self-signed certificate and checks your key. Install it (apt-get install openssl) and expose again. Nothing was changed.</source>
        <translation>主机上没有 openssl，它用于生成自签名证书并检查你的私钥。请安装（apt-get install openssl）后重新开放。未做任何更改。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Checking that the key matches the certificate (the host&apos;s openssl)</source>
        <translation>正在检查私钥与证书是否匹配（主机的 openssl）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The key file cannot be read as an unencrypted private key (%1). nginx needs it without a passphrase. Nothing was changed.</source>
        <translation>私钥文件无法作为未加密的私钥读取（%1）。nginx 需要不带口令的私钥。未做任何更改。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The key does not match the certificate: its public key is not the certificate&apos;s. Give the key the certificate was issued for. Nothing was changed.</source>
        <translation>私钥与证书不匹配：其公钥不是证书中的公钥。请提供签发该证书时所用的私钥。未做任何更改。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Pulling %1:%2 by its digest %3</source>
        <translation>正在按 digest %3 拉取 %1:%2</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The host&apos;s Docker could not pull %1: %2. Check its access to Docker Hub (&apos;docker pull %1&apos; on the host shows the same). Nothing else was changed.</source>
        <translation>主机的 Docker 无法拉取 %1：%2。请检查它对 Docker Hub 的访问（在主机上运行 “docker pull %1” 会看到同样的结果）。其他内容未做更改。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Writing the configuration to %1 on the host</source>
        <translation>正在将配置写入主机上的 %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Could not write the configuration on the host: %1</source>
        <translation>无法在主机上写入配置：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Could not write the media check on the host: %1</source>
        <translation>无法在主机上写入媒体检查脚本：%1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Could not copy the certificate to the host: %1</source>
        <translation>无法将证书复制到主机：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Could not copy the key to the host: %1</source>
        <translation>无法将私钥复制到主机：%1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Making a self-signed certificate on the host (its key never leaves it)</source>
        <translation>正在主机上生成自签名证书（其私钥不离开主机）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the host&apos;s new certificate</source>
        <translation>主机新生成的证书</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The host&apos;s openssl could not make a certificate: %1</source>
        <translation>主机的 openssl 无法生成证书：%1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Starting the gateway container %1</source>
        <translation>正在启动网关容器 %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>dockerd did not create the gateway: %1</source>
        <translation>dockerd 未能创建网关：%1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>dockerd did not start the gateway: %1</source>
        <translation>dockerd 未能启动网关：%1</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>The gateway started but did not listen on port %1 within %2 s.</source>
        <translation>网关已启动，但在 %2 秒内未监听端口 %1。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The gateway stopped right after it started (%1). nginx said:
%2</source>
        <translation>网关启动后立即停止（%1）。nginx 输出：
%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>gone</source>
        <translation>已消失</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewayplacementundo.cpp" line="+61"/>
        <source>The gateway&apos;s container and folder were removed again; the server was not touched.</source>
        <translation>网关的容器和目录已再次删除；服务器未受影响。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The gateway&apos;s container %1 could not be removed: %2</source>
        <translation>无法删除网关容器 %1：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The folder %1 could not be removed: %2</source>
        <translation>无法删除目录 %1：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Run &apos;flashdeck unexpose %1&apos; to remove what is left; the server was not touched.</source>
        <translation>运行“flashdeck unexpose %1”删除剩余内容；服务器未受影响。</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewayrecord.cpp" line="+148"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The gateway record %1 is damaged (%2).</source>
        <translation>网关记录 %1 已损坏（%2）。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Cannot remove %1: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewayremoval.cpp" line="+55"/>
        <source>Could not remove the gateway&apos;s folder: %1</source>
        <translation>无法删除网关目录：%1</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewaycheck.cpp" line="+84"/>
        <source>TLS with the recorded key</source>
        <translation>使用已记录密钥的 TLS</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not the gateway Flashdeck placed (another key answers there, or nothing): check the address and port, or expose again.</source>
        <translation>%1 不是 Flashdeck 部署的网关（那里是另一个密钥在应答，或没有应答）：请检查地址和端口，或重新开放。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Refused without the API key</source>
        <translation>无 API 密钥时被拒绝</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The gateway let a request without a key through: expose again.</source>
        <translation>网关放行了不带密钥的请求：请重新开放。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Served with the API key</source>
        <translation>带 API 密钥时正常响应</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This machine&apos;s address is not in the gateway&apos;s --allow list.</source>
        <translation>本机地址不在网关的 --allow 列表中。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Is the server running (&apos;flashdeck status&apos;)? Is the key the deployment&apos;s?</source>
        <translation>服务器是否在运行（“flashdeck status”）？密钥是否是该部署的？</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>A remote image URL refused</source>
        <translation>远程图片 URL 被拒绝</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The gateway passed a remote image URL: expose again.</source>
        <translation>网关放行了远程图片 URL：请重新开放。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server&apos;s own port not reachable</source>
        <translation>服务器自身端口不可访问</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the gateway was reached through %1:%2, not at the host&apos;s %3:%4: the server&apos;s port %5 is judged only from there</source>
        <translation>网关是经由 %1:%2 访问的，而不是主机的 %3:%4：服务器端口 %5 只能从那里判断</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>no HTTP answer on port %1</source>
        <translation>端口 %1 上没有 HTTP 应答</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Something answers HTTP on port %1 of %2 from outside the host: the server must listen on the host&apos;s loopback only (deploy again), or a firewall must close the port.</source>
        <translation>从主机外部访问 %2 的端口 %1 时有程序以 HTTP 应答：服务器必须只监听主机的回环地址（请重新部署），或由防火墙关闭该端口。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>429 past the rate</source>
        <translation>超过速率时返回 429</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>some of %1 requests at once get 429 (rate %2, burst %3)</source>
        <translation>同时发送的 %1 个请求中有一部分得到 429（速率 %2，突发 %3）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 of %2 got 429</source>
        <translation>%2 个中有 %1 个得到 429</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The gateway did not limit the rate: expose again.</source>
        <translation>网关没有限制速率：请重新开放。</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewayrequest.cpp" line="+25"/>
        <source>no answer within %1 s</source>
        <translation>%1 秒内没有应答</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>another key answered (sha256//%1), not the recorded one: nothing was sent</source>
        <translation>应答的是另一个密钥（sha256//%1），而不是记录的那个：未发送任何内容</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>no HTTP answer</source>
        <translation>没有 HTTP 应答</translation>
    </message>
    <message>
        <location filename="../../backend/expose/gatewayoperation.cpp" line="-41"/>
        <location line="+67"/>
        <location line="+36"/>
        <source>Wait for the gateway&apos;s last change to end.</source>
        <translation>请等待网关的上一次更改结束。</translation>
    </message>
    <message>
        <location line="-83"/>
        <location filename="../../backend/expose/gatewayplacementundo.cpp" line="-45"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../backend/expose/gatewayplacementundo.cpp" line="+12"/>
        <source>Nothing had been placed on the host yet: nothing was changed.</source>
        <translation>尚未在主机上放置任何内容：未做任何更改。</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>Stopping and removing the gateway</source>
        <translation>正在停止并删除网关</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>The host has no deployment whose API key the check could send: %1</source>
        <translation>主机上没有可供检查发送其 API 密钥的部署：%1</translation>
    </message>
    <message>
        <location filename="../../backend/expose/cidr.cpp" line="+17"/>
        <source>%1 %2 is not a network: give an address with its prefix length, as 10.0.0.0/8, 192.168.1.0/24 or 2001:db8::/32 (a host name is not accepted: the gateway checks the connecting address, not a name).</source>
        <translation>%1 %2 不是网段：请给出地址及其前缀长度，如 10.0.0.0/8、192.168.1.0/24 或 2001:db8::/32（不接受主机名：网关检查的是连接方的地址，而不是名称）。</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>%1 %2: the prefix length must be a number from 0 to %3 for this address.</source>
        <translation>%1 %2：此地址的前缀长度必须是 0 到 %3 之间的数字。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 %2 lets every address in, which is no restriction at all. Name the networks your colleagues and services connect from.</source>
        <translation>%1 %2 允许所有地址接入，等于没有限制。请列出同事和服务连接时所在的网段。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 %2 has bits set past its prefix length. Write %3/%4 for the network, or %5/%6 for that one address.</source>
        <translation>%1 %2 在前缀长度之后仍有置位。网段请写 %3/%4，单个地址请写 %5/%6。</translation>
    </message>
</context>
<context>
    <name>ExposePanel</name>
    <message>
        <location filename="../../ui/expose/exposepanel.cpp" line="+38"/>
        <source>TLS with the recorded key</source>
        <translation>使用已记录密钥的 TLS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refused without the API key</source>
        <translation>无 API 密钥时被拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Served with the API key</source>
        <translation>带 API 密钥时正常响应</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A remote image URL refused</source>
        <translation>远程图片 URL 被拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server&apos;s own port not reachable</source>
        <translation>服务器自身端口不可访问</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>429 past the rate</source>
        <translation>超过速率时返回 429</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Open %1 to the team</source>
        <translation>向团队开放 %1</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Who may connect, and how</source>
        <translation>谁可以连接，以及如何连接</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>10.20.0.0/16, 192.168.1.0/24</source>
        <translation>10.20.0.0/16, 192.168.1.0/24</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allowed &amp;networks:</source>
        <translation>放行的网络(&amp;N)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Required. Only these source networks reach the gateway; every other address gets 403. Without them anyone who can reach the host&apos;s port could use the server.</source>
        <translation>必填。只有这些来源网络能访问网关；其他地址一律得到 403。若不填写，任何能访问主机端口的人都能使用服务器。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Listen on:</source>
        <translation>监听地址(&amp;L)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>bur&amp;st</source>
        <translation>突发(&amp;S)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Rate per client:</source>
        <translation>每客户端速率(&amp;R)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>largest &amp;body</source>
        <translation>最大请求体(&amp;B)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>In fligh&amp;t at most:</source>
        <translation>最多并发(&amp;T)：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>none: remote image URLs refused (e.g. images.example.org, *.example.org)</source>
        <translation>无：拒绝远程图片 URL（例如 images.example.org、*.example.org）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Media hosts:</source>
        <translation>媒体主机(&amp;M)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>TLS:</source>
        <translation>TLS：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>ADDR:PORT, through a NAT or a tunnel (optional)</source>
        <translation>地址:端口，经由 NAT 或隧道（可选）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check &amp;at:</source>
        <translation>检查地址(&amp;A)：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Self-signed, made on the &amp;host (its key never leaves it)</source>
        <translation>自签名，在主机上生成(&amp;H)（私钥不离开主机）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Your certificate and key:</source>
        <translation>你的证书和私钥(&amp;Y)：</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>PEM, without a passphrase; copied 0600, never logged</source>
        <translation>PEM，不带口令；以 0600 复制，从不记录</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cert&amp;ificate:</source>
        <translation>证书(&amp;I)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Key:</source>
        <translation>私钥(&amp;K)：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>What will be placed</source>
        <translation>将要放置的内容</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Exposed</source>
        <translation>已开放</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>URL:</source>
        <translation>URL：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Public-key pin:</source>
        <translation>公钥固定值：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A colleague runs:</source>
        <translation>同事运行：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Checked from this machine</source>
        <translation>从本机检查</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Seen</source>
        <translation>实际</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Expose</source>
        <translation>开放(&amp;E)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check a&amp;gain</source>
        <translation>再次检查(&amp;G)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Unexpose</source>
        <translation>取消开放(&amp;U)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Stop placing the gateway and remove what was placed (Escape)</source>
        <translation>停止放置网关并删除已放置的内容（Esc）</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Choose the certificate (PEM)</source>
        <translation>选择证书（PEM）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose the certificate&apos;s private key (PEM)</source>
        <translation>选择证书的私钥（PEM）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The curl line was copied. It names $SGLANG_API_KEY: the key itself is never shown here.</source>
        <translation>已复制 curl 命令。其中使用 $SGLANG_API_KEY：密钥本身从不在此显示。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>PEM files (*.pem *.crt *.key);;All files (*)</source>
        <translation>PEM 文件 (*.pem *.crt *.key);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/expose/exposepanelfields.cpp" line="+33"/>
        <source>Allowed network</source>
        <translation>放行的网络</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Largest body</source>
        <translation>最大请求体</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Choose your certificate and its key, or let the host make a self-signed one.</source>
        <translation>请选择你的证书及其私钥，或让主机生成自签名证书。</translation>
    </message>
    <message>
        <location filename="../../ui/expose/exposepanel.cpp" line="+17"/>
        <source>The preview appears once the fields above say who may connect and how.</source>
        <translation>当上面的字段说明了谁可以连接以及如何连接后，这里会显示预览。</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Expected: %1
Seen: %2</source>
        <translation>预期：%1
实际：%2</translation>
    </message>
    <message>
        <location filename="../../ui/expose/exposepanelrun.cpp" line="+27"/>
        <source>Cannot read the %1 %2: %3.</source>
        <translation>无法读取%1 %2：%3。</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>certificate</source>
        <translation>证书</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>%1 is not connected: connect it from the host bar, then expose it.</source>
        <translation>%1 未连接：请从主机栏连接后再开放。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Placing the gateway on %1…</source>
        <translation>正在 %1 上放置网关…</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Cancelling: removing what was placed…</source>
        <translation>正在取消：删除已放置的内容…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Not exposed.</source>
        <translation>未开放。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Exposed at %1. Checking it from this machine…</source>
        <translation>已在 %1 开放。正在从本机检查…</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Still exposed.</source>
        <translation>仍处于开放状态。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 was not exposed: no gateway there.</source>
        <translation>%1 未开放：那里没有网关。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped and removed the gateway %1 and its folder (certificate and key); the server was not touched.</source>
        <translation>已停止并删除网关 %1 及其目录（证书和私钥）；服务器未受影响。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Check at takes ADDR:PORT, as 10.0.0.5:8443.</source>
        <translation>检查地址的格式为 地址:端口，如 10.0.0.5:8443。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Not checked.</source>
        <translation>未检查。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every check passed: the gateway is what the deployment page asks of an exposed server.</source>
        <translation>所有检查均通过：网关符合部署页面对开放服务器的要求。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A check failed: its line says what was expected and what was seen.</source>
        <translation>有检查未通过：该行说明了预期与实际结果。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Exposed at %1 (its record was written elsewhere: a terminal or another window).</source>
        <translation>已在 %1 开放（其记录由别处写入：终端或另一个窗口）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not exposed (its record was removed elsewhere: a terminal or another window).</source>
        <translation>未开放（其记录已在别处删除：终端或另一个窗口）。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Self-signed certificate made on the host, valid until %1.</source>
        <translation>在主机上生成的自签名证书，有效期至 %1。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your certificate, valid until %1.</source>
        <translation>你的证书，有效期至 %1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Certificate SHA-256 fingerprint: %1</source>
        <translation>证书 SHA-256 指纹：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allowed networks: %1</source>
        <translation>放行的网络：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Container %1, %2</source>
        <translation>容器 %1，%2</translation>
    </message>
</context>
<context>
    <name>Files</name>
    <message>
        <location filename="../../backend/core/lockedfile.cpp" line="+57"/>
        <source>Cannot open the lock file %1 (%2), so %3 was not changed. Check the folder&apos;s owner and permissions, then try again.</source>
        <translation>无法打开锁文件 %1（%2），因此 %3 未被修改。请检查该文件夹的所有者和权限，然后重试。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Cannot lock %1 (%2), so %3 was not changed. Check the folder&apos;s file system supports locks, then try again.</source>
        <translation>无法锁定 %1（%2），因此 %3 未被修改。请确认该文件夹所在的文件系统支持文件锁，然后重试。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 is being changed by another Flashdeck process, which has held %2 for more than %3 seconds, so nothing was changed. Let that process finish (fuser -v %2 names it), then try again.</source>
        <translation>另一个 Flashdeck 进程正在修改 %1，它持有 %2 已超过 %3 秒，因此没有做任何修改。请等该进程结束（fuser -v %2 可显示是哪个进程），然后重试。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Cannot read %1 (%2), so it was not changed. Check its owner and permissions, then try again.</source>
        <translation>无法读取 %1（%2），因此未修改它。请检查它的所有者和权限，然后重试。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot read %1 (%2), so it was not changed. Check the disk, then try again.</source>
        <translation>无法读取 %1（%2），因此未修改它。请检查磁盘，然后重试。</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>A copy of the file as it is now is kept as %1.</source>
        <translation>该文件当前内容的副本已保存为 %1。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Its copy could not be kept aside: %1</source>
        <translation>无法另存它的副本：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Could not write %1 (%2); the previous version is unchanged. Check free disk space and the folder&apos;s permissions, then try again.</source>
        <translation>无法写入 %1（%2）；之前的版本未改变。请检查剩余磁盘空间和该文件夹的权限，然后重试。</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Cannot write %1 (%2).</source>
        <translation>无法写入 %1（%2）。</translation>
    </message>
</context>
<context>
    <name>Fleet</name>
    <message>
        <location filename="../../backend/fleet/hostentry.cpp" line="+48"/>
        <source>&quot;%1&quot; is not a valid host name for the inventory: use 1 to 64 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit.</source>
        <translation>“%1”不是有效的主机清单名称：请使用 1 到 64 个字母、数字、“.”、“_”或“-”，并以字母或数字开头。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>&quot;%1&quot;: missing &apos;]&apos; after an IPv6 address.</source>
        <translation>“%1”：IPv6 地址后缺少“]”。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&quot;%1&quot;: expected &apos;:PORT&apos; after &apos;]&apos;.</source>
        <translation>“%1”：“]”后应为“:PORT”。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&quot;%1&quot; is not of the form [USER@]HOST[:PORT] (e.g. ops@b300-a.example:22).</source>
        <translation>“%1”不是 [USER@]HOST[:PORT] 的形式（例如 ops@b300-a.example:22）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&quot;%1&quot;: the port must be a number from 1 to 65535.</source>
        <translation>“%1”：端口必须是 1 到 65535 之间的数字。</translation>
    </message>
    <message>
        <location filename="../../backend/fleet/inventory.cpp" line="+49"/>
        <source>Cannot read the host inventory %1: %2.</source>
        <translation>无法读取主机清单 %1：%2。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The host inventory %1 was written by a newer Flashdeck (format %2). Update Flashdeck; the file was left as it is.</source>
        <translation>主机清单 %1 由更新版本的 Flashdeck 写入（格式 %2）。请更新 Flashdeck；该文件保持原样。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The host inventory %1 has an invalid entry: %2</source>
        <translation>主机清单 %1 含有无效条目：%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The host inventory %1 is not valid JSON of the expected shape, so it was not loaded and will not be overwritten. Fix or move the file. (%2)</source>
        <translation>主机清单 %1 不是预期结构的有效 JSON，因此未加载，也不会被覆盖。请修正或移走该文件。（%2）</translation>
    </message>
    <message>
        <location line="+85"/>
        <source>A host named &quot;%1&quot; is already in the inventory. Remove it first or choose another name.</source>
        <translation>主机清单中已有名为“%1”的主机。请先删除它或另选名称。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>No host named &quot;%1&quot; in the inventory.</source>
        <translation>主机清单中没有名为“%1”的主机。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>No host named &quot;%1&quot; in the inventory (see &apos;flashdeck hosts list&apos;).</source>
        <translation>主机清单中没有名为“%1”的主机（见“flashdeck hosts list”）。</translation>
    </message>
    <message>
        <location filename="../../backend/fleet/rollingupgrade.cpp" line="+69"/>
        <source>not reached</source>
        <translation>未到达</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>already on these pins</source>
        <translation>已在这些固定版本上</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not started</source>
        <translation>未开始</translation>
    </message>
    <message>
        <location filename="../../backend/fleet/fleetwatcher.cpp" line="+73"/>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <location filename="../../backend/fleet/hostsession.cpp" line="+211"/>
        <source>A deployment or upgrade of %1 is running in this window: wait for it or stop it first.</source>
        <translation>%1 的部署或升级正在此窗口中运行：请等它结束或先停止它。</translation>
    </message>
</context>
<context>
    <name>FleetModel</name>
    <message>
        <location filename="../../ui/fleet/fleetmodel.cpp" line="+132"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pins</source>
        <extracomment>Column: the image digest and model revision a host runs (固定版本).</extracomment>
        <translation>固定版本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Container</source>
        <translation>容器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Health</source>
        <translation>健康</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Team</source>
        <extracomment>Column: whether the server is open to colleagues through Flashdeck&apos;s gateway.</extracomment>
        <translation>团队</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>KV use</source>
        <translation>KV 使用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Throughput</source>
        <translation>吞吐</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Disk free</source>
        <translation>磁盘空闲</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>%1  · not in the inventory</source>
        <translation>%1  · 不在主机清单中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>  · SIMULATED</source>
        <translation>  · 模拟</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Figures from Prometheus.</source>
        <translation>数据来自 Prometheus。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Figures over SSH.</source>
        <translation>数据经由 SSH。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Known to Prometheus, not in the inventory: add it (Settings → Hosts) to deploy, follow logs or chat there.</source>
        <translation>Prometheus 知道它，但不在主机清单中：添加它（设置 → 主机）即可在其上部署、跟踪日志或聊天。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>none readable</source>
        <translation>无可读数据</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>undeployed</source>
        <translation>已撤下部署</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 · drift</source>
        <translation>%1 · 漂移</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Profile %1
Image digest %2
Model revision %3</source>
        <translation>配置 %1
镜像 digest %2
模型 revision %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The same as %1</source>
        <translation>与 %1 相同</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose the fleet&apos;s pins file in Settings to flag hosts that differ.</source>
        <translation>在“设置”中选择机群的固定文件，以标记版本不同的主机。</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+151"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="-135"/>
        <source>%1 — Docker: %2</source>
        <extracomment>A container&apos;s name, then its status in Docker&apos;s own words (&quot;Up 2 seconds&quot;).</extracomment>
        <translation>%1 —— Docker：%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>no deployment</source>
        <translation>无部署</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>open :%1</source>
        <extracomment>The server is reachable only from the host itself (and through Flashdeck&apos;s SSH tunnels).</extracomment>
        <translation>开放 :%1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>loopback</source>
        <translation>仅本机</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open to the team at %1 through Flashdeck&apos;s gateway
Allowed networks: %2
Public-key pin: sha256//%3</source>
        <translation>经 Flashdeck 网关向团队开放：%1
允许的网络：%2
公钥固定值：sha256//%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server listens on the host&apos;s loopback only. Deploy page → Open to the team… lets colleagues in through a TLS gateway.</source>
        <translation>服务器只监听主机的回环地址。部署页 → 向团队开放… 可让同事经 TLS 网关访问。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1 of %2</source>
        <translation>%2 中的 %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 running, %2 queued</source>
        <translation>运行 %1，排队 %2</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>%1 alerts: %2</source>
        <translation>%1 条告警：%2</translation>
    </message>
</context>
<context>
    <name>FleetPage</name>
    <message>
        <location filename="../../ui/pages/fleetpage.cpp" line="+63"/>
        <source>&lt;b&gt;Fleet&lt;/b&gt;</source>
        <translation>&lt;b&gt;机群&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Filter hosts</source>
        <translation>筛选主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter hosts, GPUs, states…</source>
        <translation>筛选主机、GPU、状态…</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>&lt;h3&gt;No hosts yet&lt;/h3&gt;&lt;p&gt;Add a GPU server you reach over SSH, or try the simulated 4 × B300 demo host to see everything work first.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;还没有主机&lt;/h3&gt;&lt;p&gt;添加一台你能通过 SSH 访问的 GPU 服务器，或先试用模拟的 4 × B300 演示主机，看看一切如何运作。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Add host…</source>
        <translation>添加主机…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Try the demo host</source>
        <translation>试用演示主机</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Hosts</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One row per host: state, GPUs, pins, server health and load</source>
        <translation>每台主机一行：状态、GPU、固定版本、服务器健康与负载</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Alert</source>
        <translation>告警</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Since</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Last seen</source>
        <translation>最近一次</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&lt;b&gt;Alerts&lt;/b&gt; — active now, worst first; ended ones greyed</source>
        <translation>&lt;b&gt;告警&lt;/b&gt; —— 当前活动的告警，最严重的在前；已结束的显示为灰色</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Add to inventory…</source>
        <translation>添加到主机清单…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add the selected host, which Prometheus knows and the inventory does not</source>
        <translation>添加所选主机：Prometheus 知道它，但主机清单中没有</translation>
    </message>
    <message numerus="yes">
        <location line="+29"/>
        <source>%n host(s)</source>
        <translation>
            <numerusform>%n 台主机</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 up</source>
        <translation>%1 台在线</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n 块 GPU</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no alerts</source>
        <translation>无告警</translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>%n alert(s)</source>
        <translation>
            <numerusform>%n 条告警</numerusform>
        </translation>
    </message>
    <message>
        <location line="+16"/>
        <source>⚠ %1 Every host is watched over SSH until Prometheus answers again.</source>
        <translation>⚠ %1 在 Prometheus 恢复应答之前，所有主机都经由 SSH 监视。</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>Figures from Prometheus at %1 for %n host(s)</source>
        <translation>
            <numerusform>数据来自 %1 的 Prometheus，共 %n 台主机</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>, over SSH for %n</source>
        <translation>
            <numerusform>，%n 台经由 SSH</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · refreshed in %1 ms</source>
        <translation> · 刷新耗时 %1 ms</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>%1 (ended)</source>
        <translation>%1（已结束）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>all clear</source>
        <translation>一切正常</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No alert on any host</source>
        <translation>所有主机均无告警</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Upgrade…</source>
        <translation>升级…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Move the selected hosts to another image digest or model revision, in turn; each rolls back on any failure and no other host starts after a rollback</source>
        <translation>依次将所选主机迁移到另一个镜像 digest 或模型 revision；任何失败都会回滚，回滚后不再启动其他主机</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Upgrade</source>
        <translation>升级</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <location filename="../../backend/core/format.cpp" line="+69"/>
        <source> M tokens</source>
        <translation> M token</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> k tokens</source>
        <translation> k token</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 s ago</source>
        <translation>%1 秒前</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 min ago</source>
        <translation>%1 分钟前</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 h ago</source>
        <translation>%1 小时前</translation>
    </message>
</context>
<context>
    <name>HostKeyDialog</name>
    <message>
        <location filename="../../ui/dialogs/hostkeydialog.cpp" line="+18"/>
        <source>Trust this host key?</source>
        <translation>信任此主机密钥？</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&lt;b&gt;%1&lt;/b&gt; has not been seen before. Before trusting it, compare this fingerprint with the one the server&apos;s administrator reads on the server itself (&lt;code&gt;ssh-keygen -lf /etc/ssh/ssh_host_%2_key.pub&lt;/code&gt;).</source>
        <translation>之前从未见过 &lt;b&gt;%1&lt;/b&gt;。信任之前，请将此指纹与服务器管理员在服务器上读到的指纹比对（&lt;code&gt;ssh-keygen -lf /etc/ssh/ssh_host_%2_key.pub&lt;/code&gt;）。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key type:</source>
        <translation>密钥类型：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fingerprint:</source>
        <translation>指纹：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved to:</source>
        <translation>保存到：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Trust and connect</source>
        <translation>信任并连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Do not connect</source>
        <translation>不连接</translation>
    </message>
</context>
<context>
    <name>HostState</name>
    <message>
        <location filename="../../backend/metrics/hoststate.cpp" line="+48"/>
        <source>connecting</source>
        <translation>正在连接</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>up</source>
        <translation>在线</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>down</source>
        <translation>宕机</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unscraped</source>
        <translation>未能抓取</translation>
    </message>
</context>
<context>
    <name>LaunchCommandBox</name>
    <message>
        <location filename="../../ui/deploy/launchcommandbox.cpp" line="+12"/>
        <source>Use the configuration generator&apos;s command</source>
        <translation>使用配置生成器的命令</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Paste what SGLang&apos;s configuration generator printed: python3 -m sglang.launch_server …, sglang serve … or docker run … IMAGE …</source>
        <translation>粘贴 SGLang 配置生成器打印的内容：python3 -m sglang.launch_server …、sglang serve … 或 docker run … IMAGE …</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The configuration generator&apos;s command</source>
        <translation>配置生成器的命令</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>What will run</source>
        <translation>将要运行的内容</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>%1 has no verified command on the deployment page: for GB-series, B200, H200 or AMD GPUs, paste the command SGLang&apos;s configuration generator printed into “Use the configuration generator&apos;s command”. Flashdeck keeps its flags and sets the model, its pinned revision, the port and the key; the B300 flags are never used here.</source>
        <translation>%1 在部署页面上没有经过验证的命令：对于 GB 系列、B200、H200 或 AMD GPU，请把 SGLang 配置生成器打印的命令粘贴到“使用配置生成器的命令”中。Flashdeck 保留其参数，并设置模型、其固定的修订版本、端口和密钥；这里从不使用 B300 的参数。</translation>
    </message>
</context>
<context>
    <name>LicensePanel</name>
    <message>
        <location filename="../../ui/deploy/licensepanel.cpp" line="+22"/>
        <source>Acknowledge</source>
        <translation>确认</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 — before the weights are pinned and pulled</source>
        <translation>%1 —— 在固定和拉取权重之前</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&lt;a href=&quot;%1&quot;&gt;Read the full licence on the model card&lt;/a&gt;</source>
        <translation>&lt;a href=&quot;%1&quot;&gt;在模型卡上阅读许可证全文&lt;/a&gt;</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&lt;b&gt;How will this deployment be used?&lt;/b&gt;</source>
        <translation>&lt;b&gt;此部署将用于什么用途？&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+97"/>
        <source>Not yet acknowledged for %1 (or the summary changed since): the plan stops before Pin until it is.</source>
        <translation>尚未为 %1 确认（或摘要已变化）：确认之前，计划会停在“固定”之前。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Pick the kind of use and tick both confirmations first.</source>
        <translation>请先选择用途并勾选两项确认。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1 at %2, summary sha256 %3</source>
        <translation>%1，时间 %2，摘要 sha256 %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>language not recorded</source>
        <translation>未记录语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>✓ Acknowledged for %1 by %2 at %3 (%4).
Text shown: %6, sha256 %5</source>
        <translation>✓ 已由 %2 于 %3 为 %1 确认（%4）。
所示文本：%6，sha256 %5</translation>
    </message>
</context>
<context>
    <name>LicenseTerms</name>
    <message>
        <location filename="../../backend/recipe/licenseterms.cpp" line="+93"/>
        <source>en</source>
        <comment>The language code of the licence summary to show: zh_CN</comment>
        <translation>zh_CN</translation>
    </message>
</context>
<context>
    <name>LoadTestPanel</name>
    <message>
        <location filename="../../ui/playground/loadtestpanel.cpp" line="+54"/>
        <source>Load</source>
        <extracomment>The load a load test applies (concurrency, lengths, duration), not loading a file.</extracomment>
        <translation>负载</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+1"/>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Requests in flight:</source>
        <translation>同时请求数：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt:</source>
        <translation>提示：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output:</source>
        <translation>输出：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Duration:</source>
        <translation>时长：</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Generated tokens/s (all requests)</source>
        <translation>生成 tokens/s（全部请求）</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+1"/>
        <source>tokens/s</source>
        <translation>tokens/s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server KV pool use</source>
        <translation>服务器 KV 池使用率</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>KV use</source>
        <translation>KV 使用</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Ready: %1 requests at once through the SSH tunnel.</source>
        <translation>就绪：通过 SSH 隧道同时发送 %1 个请求。</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Finished after %1 s.</source>
        <translation>%1 秒后完成。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running: %1 s of %2.</source>
        <translation>正在运行：%1 / %2 秒。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>In flight</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 (%2/s)</source>
        <translation>%1（%2/秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TTFT p50 / p95</source>
        <translation>TTFT p50 / p95</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inter-token p50 / p95</source>
        <translation>token 间隔 p50 / p95</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens/s, client</source>
        <translation>Tokens/s，客户端</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens/s, server</source>
        <translation>Tokens/s，服务器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Server KV use</source>
        <translation>服务器 KV 使用</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+1"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Server queue</source>
        <translation>服务器队列</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Export the load test</source>
        <translation>导出压测结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JSON (*.json);;CSV, one row per request (*.csv)</source>
        <translation>JSON (*.json);;CSV，每个请求一行 (*.csv)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
</context>
<context>
    <name>LogModel</name>
    <message>
        <location filename="../../ui/logs/logmodel.cpp" line="+68"/>
        <source> … [line cut at 1 MiB]</source>
        <translation> … [行在 1 MiB 处截断]</translation>
    </message>
</context>
<context>
    <name>LogPanel</name>
    <message>
        <location filename="../../ui/logs/logpanel.cpp" line="+55"/>
        <source>Follow</source>
        <extracomment>Keep scrolling to the newest log line (like tail -f), not following a person.</extracomment>
        <translation>跟踪</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+309"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="-306"/>
        <source>Only matching</source>
        <translation>仅匹配行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Timestamps</source>
        <translation>时间戳</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Keep the newest line in view</source>
        <translation>保持显示最新一行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Freeze the view; new lines wait and appear on resume</source>
        <translation>冻结视图；新行会等待，恢复后出现</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Milestones</source>
        <translation>里程碑</translation>
    </message>
    <message>
        <location line="+26"/>
        <location line="+1"/>
        <source>Search the log</source>
        <translation>搜索日志</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Previous match (Shift+F3)</source>
        <translation>上一个匹配（Shift+F3）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next match (F3)</source>
        <translation>下一个匹配（F3）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Highlights</source>
        <extracomment>Jump between the classified log lines (milestones, warnings, errors).</extracomment>
        <translation>重点</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Previous milestone, warning or error</source>
        <translation>上一个里程碑、警告或错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next milestone, warning or error</source>
        <translation>下一个里程碑、警告或错误</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Polls</source>
        <extracomment>Show the log&apos;s health and metrics polls (folded by default).</extracomment>
        <translation>轮询</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the health and metrics polls: SGLang logs each one, and Flashdeck&apos;s monitor asks every few seconds, so they are folded</source>
        <translation>显示健康与指标轮询：SGLang 会记录每一次请求，而 Flashdeck 的监控每隔几秒询问一次，因此默认折叠</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the selected lines (secrets redacted)</source>
        <translation>复制所选行（已隐去机密）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save every line held to a file (secrets redacted)</source>
        <translation>将保留的所有行保存到文件（已隐去机密）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Log lines</source>
        <translation>日志行</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The selected line&apos;s meaning</source>
        <translation>所选行的含义</translation>
    </message>
    <message numerus="yes">
        <location line="+134"/>
        <source> · resumed %n time(s) without losing or repeating a line</source>
        <translation>
            <numerusform> · 已续接 %n 次，没有丢失或重复任何一行</numerusform>
        </translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location line="+94"/>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Save log</source>
        <translation>保存日志</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Log files (*.log *.txt);;All files (*)</source>
        <translation>日志文件 (*.log *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Saved %1 lines to %2 (secrets redacted).</source>
        <translation>已将 %1 行保存到 %2（已隐去机密）。</translation>
    </message>
    <message>
        <location filename="../../ui/logs/logbadges.cpp" line="+79"/>
        <source>qmul4: no server start-up in the log</source>
        <translation>qmul4：日志中没有服务器启动记录</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The NVFP4 KV-cache decode kernel: &quot;backend=qmul4&quot; is the fast path; any other backend means a CUDA Toolkit older than 13.4 and a silent slow fallback.</source>
        <translation>NVFP4 KV 缓存解码内核：“backend=qmul4”是快速路径；任何其他后端都意味着 CUDA Toolkit 低于 13.4，并悄悄回退到慢速路径。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>KV pool: %1</source>
        <translation>KV 池：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The KV cache the server allocated, in tokens (from its &quot;KV Cache is allocated&quot; line).</source>
        <translation>服务器分配的 KV 缓存，以 token 计（取自其“KV Cache is allocated”行）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Server: ready</source>
        <translation>服务器：已就绪</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Server: starting</source>
        <translation>服务器：启动中</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Server: no log</source>
        <translation>服务器：无日志</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No line of a server&apos;s log has arrived: no deployment runs on this host, or it cannot be reached (the line under the log says which).</source>
        <translation>尚未收到服务器日志的任何一行：此主机上没有运行中的部署，或无法连接到它（日志下方的状态行会说明是哪一种）。</translation>
    </message>
    <message>
        <location filename="../../ui/logs/logpanel.cpp" line="+64"/>
        <source>milestone: ready, qmul4 fast path, DSpark draft loaded</source>
        <translation>里程碑：就绪、qmul4 快速路径、DSpark 草稿模型已加载</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warning: qmul4 slow fallback, a stalled health check</source>
        <translation>警告：qmul4 慢速回退、健康检查停滞</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>error: out of memory, missing shard, crash, port taken, JIT disabled</source>
        <translation>错误：显存不足、缺少分片、崩溃、端口被占用、JIT 被禁用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>info: weights loading, KV pool, decode batches</source>
        <translation>信息：权重加载、KV 池、解码批次</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;p&gt;Select a line to read it in full; highlighted lines say what they mean and what to do.&lt;/p&gt;</source>
        <translation>&lt;p&gt;选中一行即可阅读全文；高亮的行会说明其含义和处理方法。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&lt;p&gt;&lt;b&gt;What to do:&lt;/b&gt; %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;处理方法：&lt;/b&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1 lines</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (last %1 of %2 kept)</source>
        <translation> （保留了 %2 行中的最后 %1 行）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · paused, %1 new</source>
        <translation> · 已暂停，%1 行新内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · %1 polls folded</source>
        <translation> · 已折叠 %1 条轮询</translation>
    </message>
</context>
<context>
    <name>LogRuleText</name>
    <message>
        <location filename="data-texts.h" line="+30"/>
        <source>The server finished its warmup and serves requests.</source>
        <translation>服务器已完成预热，正在处理请求。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The fast NVFP4 KV dequant kernel compiled (the image&apos;s CUDA Toolkit is 13.4 or newer).</source>
        <translation>快速的 NVFP4 KV 反量化内核已编译（镜像的 CUDA Toolkit 为 13.4 或更新）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The NVFP4 KV kernel fell back to a slow path, silently: the server found a CUDA Toolkit older than 13.4 in its image (the toolkit inside the container, not the host&apos;s driver).</source>
        <translation>NVFP4 KV 内核悄悄回退到了慢速路径：服务器在其镜像中发现了低于 13.4 的 CUDA Toolkit（指容器内的 toolkit，而不是主机的驱动）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run the pinned image, or one built with CUDA 13.4 or newer, then restart the server. Updating the driver does not change the image&apos;s toolkit.</source>
        <translation>请运行固定的镜像，或用 CUDA 13.4 及以上构建的镜像，然后重启服务器。更新驱动不会改变镜像中的 toolkit。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The DSpark draft model is loaded: speculative decoding is on.</source>
        <translation>DSpark 草稿模型已加载：投机解码已开启。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The GPUs ran out of memory for the weights or the KV pool.</source>
        <translation>显存不足以容纳权重或 KV 池。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Free the GPUs of other processes. When the log asks to increase --mem-fraction-static, the KV pool does not fit: raise it a little (0.80 → 0.85); after CUDA out of memory, lower it, the context length or the HiCache size.</source>
        <translation>请释放 GPU 上的其他进程。如果日志要求增大 --mem-fraction-static，说明 KV 池放不下：将其略微调高（0.80 → 0.85）；如果出现 CUDA out of memory，则调低它、上下文长度或 HiCache 大小。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HiCache asked for more host memory than is free.</source>
        <translation>HiCache 请求的主机内存超过了空闲内存。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lower --hicache-size (it counts per rank) or free host memory.</source>
        <translation>请降低 --hicache-size（按每个 rank 计算）或释放主机内存。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A weight shard is missing or damaged.</source>
        <translation>有权重分片缺失或损坏。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check free disk, then re-download the pinned revision into the same folder (the download resumes).</source>
        <translation>请检查剩余磁盘，然后把固定的 revision 重新下载到同一目录（下载会续传）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A port the server needs is taken.</source>
        <translation>服务器需要的端口已被占用。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop what holds it (ss -ltnp) or give the server another --port.</source>
        <translation>请停止占用它的程序（ss -ltnp），或给服务器另一个 --port。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The MSA attention kernel could not be compiled or found.</source>
        <translation>无法编译或找到 MSA 注意力内核。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set FMHA_SM100_ALLOW_JIT=1 and mount ~/.cache/minfer; on several GPUs, warm the JIT cache with a single process first.</source>
        <translation>请设置 FMHA_SM100_ALLOW_JIT=1 并挂载 ~/.cache/minfer；多 GPU 时，先用单个进程预热 JIT 缓存。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server stopped answering its own health probe.</source>
        <translation>服务器不再应答自身的健康探测。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read the lines before it; restart the server if it does not recover.</source>
        <translation>请阅读它之前的日志行；如果服务器没有恢复，请重启它。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A server process failed; the lines after it name the cause.</source>
        <translation>有服务器进程失败；其后的日志行说明了原因。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read the traceback; the rules above cover the common causes.</source>
        <translation>请阅读 traceback；上面的规则涵盖了常见原因。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The KV pool&apos;s size in tokens: compare it with the profile&apos;s expectation.</source>
        <translation>KV 池的大小（以 token 计）：请与配置的预期值比较。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Weight loading progress.</source>
        <translation>权重加载进度。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Live KV use, running and queued requests and throughput.</source>
        <translation>实时的 KV 使用率、运行中和排队的请求以及吞吐。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A health or metrics poll answered: Flashdeck&apos;s monitor (or another one) asking the server how it is. SGLang logs every request, so these are most of an idle server&apos;s log: folded unless polls are shown.</source>
        <translation>一次已应答的健康或指标轮询：Flashdeck 的监控（或其他监控）在询问服务器状态。SGLang 会记录每一次请求，因此空闲服务器的日志大多是这些行：除非选择显示轮询，否则折叠。</translation>
    </message>
</context>
<context>
    <name>Logging</name>
    <message>
        <location filename="../../backend/applog/levelspec.cpp" line="+69"/>
        <source>Unknown log level &quot;%1&quot; in &quot;%2&quot;. Use one of: %3.</source>
        <translation>“%2”中有未知的日志级别“%1”。请使用以下之一：%3。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The log spec &quot;%1&quot; gives more than one default level; keep one.</source>
        <translation>日志设置“%1”给出了多个默认级别；请只保留一个。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Unknown log subsystem &quot;%1&quot; in &quot;%2&quot;. Known subsystems: %3.</source>
        <translation>“%2”中有未知的日志子系统“%1”。已知子系统：%3。</translation>
    </message>
    <message>
        <location filename="../../backend/applog/logging.cpp" line="+134"/>
        <source>Cannot write the log file %1 (%2); logging to the terminal only.</source>
        <translation>无法写入日志文件 %1（%2）；只记录到终端。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot create the log folder %1; logging to the terminal only.</source>
        <translation>无法创建日志目录 %1；只记录到终端。</translation>
    </message>
</context>
<context>
    <name>Logs</name>
    <message>
        <location filename="../../backend/logs/logfollower.cpp" line="+80"/>
        <source>Waiting for the SSH connection</source>
        <translation>正在等待 SSH 连接</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Connection lost; waiting for SSH to reconnect</source>
        <translation>连接已断开；正在等待 SSH 重连</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Opening the Docker tunnel</source>
        <translation>正在打开 Docker 隧道</translation>
    </message>
    <message>
        <location line="+75"/>
        <source> Waiting for one to start.</source>
        <translation> 正在等待其启动。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No container named %1 on %2.</source>
        <translation>%2 上没有名为 %1 的容器。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>No Flashdeck deployment on %1.</source>
        <translation>%1 上没有 Flashdeck 部署。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 is not running; waiting for it to start</source>
        <translation>%1 没有运行；正在等待其启动</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Following %1</source>
        <translation>正在跟踪 %1</translation>
    </message>
    <message>
        <location line="+97"/>
        <source>The log stream broke; reconnecting</source>
        <translation>日志流中断；正在重连</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>End of the log of %1</source>
        <translation>%1 的日志结束</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 stopped; waiting for it to start again</source>
        <translation>%1 已停止；正在等待其再次启动</translation>
    </message>
    <message>
        <location filename="../../backend/logs/logrules.cpp" line="+19"/>
        <source>%1: expected an object with a &quot;rules&quot; array</source>
        <translation>%1：应为含有“rules”数组的对象</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&quot;id&quot; must be a string</source>
        <translation>“id”必须是字符串</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&quot;%1&quot; must be a string</source>
        <translation>“%1”必须是字符串</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&quot;severity&quot; of %1 must be ok, info, warn, error or plain</source>
        <translation>%1 的 &quot;severity&quot; 必须是 ok、info、warn、error 或 plain</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&quot;match&quot; of %1 must be a non-empty array of strings</source>
        <translation>%1 的“match”必须是非空的字符串数组</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&quot;match&quot; of %1 holds something that is not a non-empty string</source>
        <translation>%1 的“match”中含有不是非空字符串的内容</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the id %1 is used twice</source>
        <translation>id %1 被使用了两次</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The built-in log rules are missing from this build.</source>
        <translation>此版本缺少内置的日志规则。</translation>
    </message>
    <message>
        <location filename="../../backend/logs/loghighlights.cpp" line="+101"/>
        <source>qmul4: fast path (checked at deploy)</source>
        <translation>qmul4：快速路径（部署时已检查）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>qmul4: fast path</source>
        <translation>qmul4：快速路径</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>qmul4: SLOW fallback — CUDA Toolkit &lt; 13.4 (checked at deploy)</source>
        <translation>qmul4：慢速回退 —— CUDA Toolkit &lt; 13.4（部署时已检查）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>qmul4: SLOW fallback — CUDA Toolkit &lt; 13.4</source>
        <translation>qmul4：慢速回退 —— CUDA Toolkit &lt; 13.4</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>qmul4: not printed by this start</source>
        <translation>qmul4：本次启动没有打印</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>qmul4: does not apply to these GPUs</source>
        <translation>qmul4：不适用于这些 GPU</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>qmul4: the server&apos;s start-up is not in this log</source>
        <translation>qmul4：此日志中没有服务器的启动过程</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>qmul4: not an SGLang server log</source>
        <translation>qmul4：不是 SGLang 服务器日志</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>qmul4: waiting for the start-up check</source>
        <translation>qmul4：正在等待启动检查</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>DSpark: draft loaded</source>
        <translation>DSpark：草稿模型已加载</translation>
    </message>
    <message>
        <location filename="../../backend/cli/logscommand.cpp" line="-100"/>
        <source>the container followed is gone; waiting for a new one</source>
        <translation>正在跟随的容器已不存在；等待新的容器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a new container, %1, replaced the one followed; its log starts here</source>
        <translation>新容器 %1 取代了正在跟随的容器；其日志从这里开始</translation>
    </message>
</context>
<context>
    <name>LogsPage</name>
    <message>
        <location filename="../../ui/pages/logspage.cpp" line="+34"/>
        <location line="+43"/>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Logs · %1</source>
        <translation>日志 · %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Pick a host in the host bar to follow its deployment&apos;s log.</source>
        <translation>在主机栏中选择一台主机，以跟踪其部署的日志。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not in the inventory.</source>
        <translation>%1 不在主机清单中。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../ui/mainwindow.cpp" line="+215"/>
        <source>Fleet</source>
        <translation>机群</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Deploy</source>
        <translation>部署</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Playground</source>
        <translation>调试台</translation>
    </message>
    <message>
        <location filename="../../ui/hostbar.cpp" line="+54"/>
        <location filename="../../ui/mainwindow.cpp" line="+2"/>
        <location line="+158"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.cpp" line="-149"/>
        <source>Pages</source>
        <translation>页面</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 (Ctrl+%2)</source>
        <translation>%1（Ctrl+%2）</translation>
    </message>
    <message>
        <location filename="../../ui/hostbar.cpp" line="-32"/>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No hosts yet</source>
        <translation>还没有主机</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+57"/>
        <source>Add a host to start</source>
        <translation>添加一台主机以开始</translation>
    </message>
    <message>
        <location line="-48"/>
        <location line="+52"/>
        <location line="+22"/>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location line="-67"/>
        <source>Add host…</source>
        <translation>添加主机…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Settings (Ctrl+6)</source>
        <translation>设置（Ctrl+6）</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.cpp" line="+100"/>
        <source>Demo host</source>
        <translation>演示主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start Flashdeck with --demo (or run &apos;flashdeck demo start&apos;) to add the simulated hosts.</source>
        <translation>用 --demo 启动 Flashdeck（或运行“flashdeck demo start”）以添加模拟主机。</translation>
    </message>
    <message>
        <location filename="../../ui/hostbar.cpp" line="+23"/>
        <source>  [SIMULATED]</source>
        <translation>  [模拟]</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindowhosts.cpp" line="+80"/>
        <source>Could not add the host</source>
        <translation>无法添加主机</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Added %1. Connect to check its host key.</source>
        <translation>已添加 %1。请连接以检查其主机密钥。</translation>
    </message>
    <message>
        <location filename="../../ui/hostbar.cpp" line="+13"/>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindowhosts.cpp" line="+37"/>
        <source>Cannot connect to %1</source>
        <translation>无法连接 %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>No hosts in the inventory. Add one with &quot;Add host…&quot;.</source>
        <translation>主机清单中没有主机。请用“添加主机…”添加一台。</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n host(s) in the inventory</source>
        <translation>
            <numerusform>主机清单中有 %n 台主机</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.cpp" line="+101"/>
        <source>A deployment is running</source>
        <translation>有部署正在运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flashdeck is deploying to %1.</source>
        <translation>Flashdeck 正在部署到 %1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop it cleanly (what runs is cancelled and what is left on the host is recorded), or close and leave the host as it is: a running server keeps running; an image pull in progress stops with the connection and Resume continues it from the layers already there.</source>
        <translation>干净地停止它（取消正在运行的操作，并记录留在主机上的内容），或关闭并让主机保持现状：正在运行的服务器会继续运行；进行中的镜像拉取会随连接一起停止，“继续”会从已有的层接着拉取。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop the deployment</source>
        <translation>停止部署</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Leave it on the host</source>
        <translation>留在主机上</translation>
    </message>
</context>
<context>
    <name>MediaFetcher</name>
    <message>
        <location filename="../../backend/chat/mediafetcher.cpp" line="+23"/>
        <source>The image did not arrive within %1 s (the limit in Settings → Playground).</source>
        <translation>图片没有在 %1 秒内到达（上限在“设置 → 调试台”中）。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>Cannot resolve %1: %2.</source>
        <translation>无法解析 %1：%2。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 has no address.</source>
        <translation>%1 没有地址。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>The TLS certificate of %1 is not valid: %2. The image is not fetched.</source>
        <translation>%1 的 TLS 证书无效：%2。未获取图片。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Cannot fetch the image from %1: %2.</source>
        <translation>无法从 %1 获取图片：%2。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The image server sent an oversized response head.</source>
        <translation>图片服务器发送的响应头过大。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The image URL redirects (HTTP %1) to %2; redirects are not followed. Check that address and use it directly if you trust it.</source>
        <translation>图片 URL 重定向（HTTP %1）到 %2；不跟随重定向。如果信任该地址，请检查后直接使用。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The image server answered HTTP %1.</source>
        <translation>图片服务器返回 HTTP %1。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The URL serves %1, not a PNG, JPEG or WebP image.</source>
        <translation>该 URL 提供的是 %1，不是 PNG、JPEG 或 WebP 图片。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no content type</source>
        <translation>没有内容类型</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The image is %1 MB; the limit is %2 MB (Settings → Playground).</source>
        <translation>图片大小为 %1 MB；上限为 %2 MB（设置 → 调试台）。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The image server sent a malformed chunked body.</source>
        <translation>图片服务器发送了格式错误的分块正文。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>The image is larger than the %1 MB limit (Settings → Playground); the download was stopped.</source>
        <translation>图片超过 %1 MB 的上限（设置 → 调试台）；下载已停止。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The image server closed the connection without an answer.</source>
        <translation>图片服务器没有应答就关闭了连接。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The image arrived cut short (the chunked body has no end).</source>
        <translation>图片不完整（分块正文没有结尾）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The image arrived cut short (%1 of %2 bytes).</source>
        <translation>图片不完整（%2 字节中的 %1 字节）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server calls it %1 but the bytes are %2; it is not sent.</source>
        <translation>服务器称其为 %1，但字节内容是 %2；未发送。</translation>
    </message>
</context>
<context>
    <name>Metrics</name>
    <message>
        <location filename="../../backend/metrics/gpusampler.cpp" line="+174"/>
        <source>%1 listed no GPU</source>
        <translation>%1 没有列出任何 GPU</translation>
    </message>
    <message>
        <location filename="../../backend/metrics/hostmonitor.cpp" line="+104"/>
        <source>%1 has given no reading for %2 s (the tool hangs, or the host is overloaded)</source>
        <translation>%1 已有 %2 秒没有给出读数（工具卡住，或主机过载）</translation>
    </message>
    <message>
        <location line="+308"/>
        <source>neither nvidia-smi nor amd-smi/rocm-smi is on the host&apos;s PATH</source>
        <translation>主机的 PATH 中既没有 nvidia-smi 也没有 amd-smi/rocm-smi</translation>
    </message>
    <message>
        <location filename="../../backend/metrics/hoststatus.cpp" line="+328"/>
        <source>Host unreachable: %1</source>
        <translation>主机不可达：%1</translation>
    </message>
    <message>
        <location line="-165"/>
        <source>GPU %1 memory at %2 % (threshold %3 %)</source>
        <translation>GPU %1 显存占用 %2 %（阈值 %3 %）</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Runs other pins than %1: %2</source>
        <translation>运行的固定版本与 %1 不同：%2</translation>
    </message>
    <message>
        <location line="-111"/>
        <source>%1 was created and has not started (Docker: %2)</source>
        <translation>%1 已创建但尚未启动（Docker：%2）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 is paused (Docker: %2)</source>
        <translation>%1 已暂停（Docker：%2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 is not running (Docker: %2)</source>
        <translation>%1 未在运行（Docker：%2）</translation>
    </message>
    <message>
        <location line="+284"/>
        <source>no answer</source>
        <translation>无应答</translation>
    </message>
    <message>
        <location line="-152"/>
        <source>%1 requests queued (threshold %2)</source>
        <translation>%1 个请求排队（阈值 %2）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Time to first token p95 %1 s (threshold %2 s)</source>
        <translation>首 token 延迟 p95 %1 秒（阈值 %2 秒）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 % of requests aborted (threshold %2 %)</source>
        <translation>%1 % 的请求被中止（阈值 %2 %）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>An upgrade runs on this host: its server restarts on the new pins</source>
        <translation>此主机正在升级：其服务器将以新的固定版本重新启动</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>A deployment runs on this host: its steps start the server</source>
        <translation>此主机上正在运行部署：其步骤将启动服务器</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 keeps restarting (Docker: %2)</source>
        <translation>%1 反复重启（Docker：%2）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 runs but its server does not answer</source>
        <translation>%1 在运行，但其服务器没有应答</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server does not answer Prometheus&apos; scrape (up is 0)</source>
        <translation>服务器没有应答 Prometheus 的抓取（up 为 0）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 GB free for the caches (threshold %2 GB)</source>
        <translation>缓存可用空间 %1 GB（阈值 %2 GB）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The NVFP4 KV kernel fell back from qmul4: the server&apos;s image has a CUDA Toolkit older than 13.4; run the pinned image (or one with CUDA 13.4 or newer)</source>
        <translation>NVFP4 KV 内核从 qmul4 回退：服务器镜像中的 CUDA Toolkit 低于 13.4；请运行固定的镜像（或带 CUDA 13.4 及以上的镜像）</translation>
    </message>
    <message>
        <location filename="../../backend/metrics/metricsarchive.cpp" line="+67"/>
        <source>Cannot create %1 for the chart history. Check its permissions, or turn off &quot;Keep chart history on disk&quot; in Settings.</source>
        <translation>无法为图表历史创建 %1。请检查其权限，或在“设置”中关闭“在磁盘上保留图表历史”。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cannot write the chart history %1: %2. The previous copy is kept; free some disk space.</source>
        <translation>无法写入图表历史 %1：%2。保留之前的副本；请腾出磁盘空间。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cannot read the chart history %1: %2. The charts start empty.</source>
        <translation>无法读取图表历史 %1：%2。图表从空开始。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The chart history %1 is damaged (%2); it was moved to %3 and the charts start empty.</source>
        <translation>图表历史 %1 已损坏（%2）；已移到 %3，图表从空开始。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>not a Flashdeck chart history</source>
        <translation>不是 Flashdeck 的图表历史</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>format version %1, this Flashdeck reads %2</source>
        <translation>格式版本 %1，此版本的 Flashdeck 读取 %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>written on a machine of the other byte order</source>
        <translation>写于字节序相反的机器</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 bytes where %2 were written</source>
        <translation>应为 %2 字节，实为 %1 字节</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>checksum mismatch</source>
        <translation>校验和不符</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>series %1 of %2 unreadable</source>
        <translation>%2 个序列中的第 %1 个无法读取</translation>
    </message>
    <message>
        <location filename="../../backend/metrics/serversampler.cpp" line="+147"/>
        <source>/metrics answered %1 %2</source>
        <translation>/metrics 返回 %1 %2</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>/v1/loads needs the server&apos;s API key, and Flashdeck does not have it (the keyring holds it for deployments Flashdeck made); reading the log&apos;s Decode batch lines instead</source>
        <translation>/v1/loads 需要服务器的 API 密钥，而 Flashdeck 没有（密钥环只保存 Flashdeck 所做部署的密钥）；改为读取日志中的 Decode batch 行</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>neither /metrics nor /v1/loads gave numbers (/v1/loads: %1); reading the log&apos;s Decode batch lines instead</source>
        <translation>/metrics 和 /v1/loads 都没有给出数字（/v1/loads：%1）；改为读取日志中的 Decode batch 行</translation>
    </message>
    <message>
        <location filename="../../backend/metrics/metricid.cpp" line="+18"/>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>M tokens</source>
        <translation>M token</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tok/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>tokens</source>
        <translation>token</translation>
    </message>
    <message>
        <location filename="../../backend/metrics/alertseverity.cpp" line="+10"/>
        <source>critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>info</source>
        <translation>提示</translation>
    </message>
</context>
<context>
    <name>MetricsPage</name>
    <message>
        <location filename="../../ui/pages/metricspage.cpp" line="+77"/>
        <source>1 min</source>
        <translation>1 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>5 min</source>
        <translation>5 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>1 h</source>
        <translation>1 小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>24 h</source>
        <translation>24 小时</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>GPU utilisation</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU memory used</source>
        <translation>已用显存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU power</source>
        <translation>GPU 功率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU temperature</source>
        <translation>GPU 温度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>KV pool use</source>
        <translation>KV 池使用率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>KV pool tokens</source>
        <translation>KV 池 token 数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Generation throughput</source>
        <translation>生成吞吐</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Latency (TTFT, end to end)</source>
        <translation>延迟（TTFT、端到端）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Spec accept length</source>
        <translation>投机接受长度</translation>
    </message>
    <message>
        <location line="-69"/>
        <source>&lt;h3&gt;No host chosen&lt;/h3&gt;&lt;p&gt;Pick a host in the bar above, or double-click one on the Fleet page, to see its GPUs and its server live.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;未选择主机&lt;/h3&gt;&lt;p&gt;在上方栏中选择一台主机，或在“机群”页双击一台，即可实时查看其 GPU 和服务器。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+222"/>
        <source>KV use</source>
        <translation>KV 使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>used</source>
        <translation>已用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>expected pool (profile)</source>
        <translation>预期 KV 池（配置）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>queued</source>
        <translation>排队</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>generated</source>
        <translation>已生成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TTFT p50</source>
        <translation>TTFT p50</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TTFT p95</source>
        <translation>TTFT p95</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>e2e p95</source>
        <translation>端到端 p95</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>accept length</source>
        <translation>接受长度</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a host in the bar above, or double-click one on the Fleet page.</source>
        <translation>在上方栏中选择一台主机，或在“机群”页双击一台。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not watched yet.</source>
        <translation>尚未监视 %1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Metrics — %1</source>
        <translation>指标 —— %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>KV %1 of %2</source>
        <translation>KV %2 中的 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>server %1</source>
        <translation>服务器 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Prometheus could not give the charts (%1); they show what Flashdeck sampled over SSH</source>
        <translation>Prometheus 未能提供图表（%1）；图表显示 Flashdeck 通过 SSH 采集的数据</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>asking Prometheus for the charts…</source>
        <translation>正在向 Prometheus 请求图表…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Prometheus has no series for %1 in this window (are its exporters scraped?); the charts show what Flashdeck sampled over SSH</source>
        <translation>Prometheus 在此时间窗口内没有 %1 的序列（它的导出器是否被抓取？）；图表显示 Flashdeck 通过 SSH 采集的数据</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>charts from Prometheus (%n series; a metric it lacks is drawn from what Flashdeck sampled over SSH)</source>
        <translation>
            <numerusform>图表来自 Prometheus（%n 个序列；它缺少的指标按 Flashdeck 通过 SSH 采集的数据绘制）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ParametersBox</name>
    <message>
        <location filename="../../ui/playground/parametersbox.cpp" line="+16"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>System prompt (optional)</source>
        <translation>系统提示词（可选）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Off sends chat_template_kwargs {&quot;thinking_mode&quot;: &quot;disabled&quot;} (MiniMax-M3)</source>
        <translation>关闭时发送 chat_template_kwargs {&quot;thinking_mode&quot;: &quot;disabled&quot;}（MiniMax-M3）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Top p:</source>
        <translation>Top p：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>server default</source>
        <translation>服务器默认值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Max tokens:</source>
        <translation>最大 token 数：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none; separate with |</source>
        <translation>无；用 | 分隔</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop:</source>
        <extracomment>Stop sequences of the sampling parameters, not a stop button.</extracomment>
        <translation>停止序列：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model card defaults</source>
        <translation>模型卡默认值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>temperature 1.0, top_p 0.95</source>
        <translation>temperature 1.0，top_p 0.95</translation>
    </message>
</context>
<context>
    <name>PlaceholderPage</name>
    <message>
        <location filename="../../ui/pages/placeholderpage.cpp" line="+41"/>
        <source>Not available in this build yet.</source>
        <translation>此版本尚不提供。</translation>
    </message>
</context>
<context>
    <name>PlanView</name>
    <message>
        <location filename="../../ui/deploy/planview.cpp" line="+56"/>
        <source>Deployment steps</source>
        <translation>部署步骤</translation>
    </message>
</context>
<context>
    <name>PlaygroundPage</name>
    <message>
        <location filename="../../ui/pages/playgroundpage.cpp" line="+87"/>
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Load test</source>
        <translation>压测</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;p&gt;Ask the deployment something. The reasoning streams in its own pane above each answer; switch &lt;b&gt;Thinking&lt;/b&gt; off on the right for a direct answer.&lt;/p&gt;</source>
        <translation>&lt;p&gt;向部署提问。推理过程在每个回答上方的独立窗格中流式显示；在右侧关闭&lt;b&gt;思考&lt;/b&gt;可直接得到回答。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message (Ctrl+Enter to send)</source>
        <translation>消息（Ctrl+Enter 发送）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Attach image…</source>
        <translation>附加图片…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PNG, JPEG or WebP, checked by content and size, sent as data (never as a URL for the host to fetch)</source>
        <translation>PNG、JPEG 或 WebP，按内容和大小检查，以数据形式发送（绝不作为 URL 让主机去获取）</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+349"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location line="-346"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy as curl</source>
        <translation>复制为 curl</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The request for the GPU host&apos;s shell; the key stays $SGLANG_API_KEY</source>
        <translation>在 GPU 主机 shell 中运行的请求；密钥保持为 $SGLANG_API_KEY</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Image URL…</source>
        <translation>图片 URL…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Flashdeck fetches it itself under the media policy (allowed hosts in Settings) and sends the bytes; the URL never reaches the GPU host</source>
        <translation>Flashdeck 按媒体策略（允许的主机在“设置”中）自行获取并发送字节；URL 永远不会到达 GPU 主机</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Image from a URL</source>
        <translation>来自 URL 的图片</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>https URL of a PNG, JPEG or WebP:</source>
        <translation>PNG、JPEG 或 WebP 的 https URL：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Attach images</source>
        <translation>附加图片</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Images (*.png *.jpg *.jpeg *.webp)</source>
        <translation>图片 (*.png *.jpg *.jpeg *.webp)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Image not attached</source>
        <translation>图片未附加</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Last reply</source>
        <translation>上一条回复</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No reply yet.</source>
        <translation>还没有回复。</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Playground</source>
        <translation>调试台</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Playground — %1</source>
        <translation>调试台 —— %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a host in the bar above.</source>
        <translation>在上方栏中选择一台主机。</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>Choose a host in the bar above first.</source>
        <translation>请先在上方栏中选择一台主机。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Flashdeck has not deployed to %1, so it does not know its server. Deploy first, on the Deploy page.</source>
        <translation>Flashdeck 尚未部署到 %1，因此不知道它的服务器。请先在“部署”页面部署。</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+15"/>
        <source>%1 is not watched yet.</source>
        <translation>尚未监视 %1。</translation>
    </message>
    <message>
        <location line="-14"/>
        <source> Deploy it again from the Deploy page.</source>
        <translation> 请在“部署”页面重新部署。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 is not connected.</source>
        <translation>%1 未连接。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the router on port %1</source>
        <translation>端口 %1 上的 Router</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>port %1</source>
        <translation>端口 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SGLang server</source>
        <translation>SGLang 服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · %2 on the host, through the SSH tunnel · API key: looking…</source>
        <translation>%1 · 主机上的 %2，经由 SSH 隧道 · API 密钥：正在查找…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 · %2 on the host, through the SSH tunnel · API key: %3</source>
        <translation>%1 · 主机上的 %2，经由 SSH 隧道 · API 密钥：%3</translation>
    </message>
    <message>
        <location filename="../../ui/playground/apikeylookup.cpp" line="+36"/>
        <source>from the keyring (••••••)</source>
        <translation>来自密钥环（••••••）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>kept in memory for this run, no keyring here (••••••)</source>
        <translation>仅在本次运行中保存在内存里，此处没有密钥环（••••••）</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>from the running server (••••••)</source>
        <translation>来自正在运行的服务器（••••••）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none — %1 The server will refuse requests if it has one.</source>
        <translation>无 —— %1 如果服务器设置了密钥，它会拒绝请求。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/playgroundpage.cpp" line="+4"/>
        <source>%1 · %2 on the host, through the SSH tunnel · API key: none</source>
        <translation>%1 · 主机上的 %2，经由 SSH 隧道 · API 密钥：无</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Image not fetched</source>
        <translation>未获取图片</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1 ✕</source>
        <translation>%1 ✕</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 · %2 kB · click to remove</source>
        <translation>%1 · %2 kB · 点击移除</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Send edited</source>
        <translation>发送修改</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>First token: %1</source>
        <translation>首个 token：%1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+5"/>
        <location line="+2"/>
        <location line="+5"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Rate: %1</source>
        <translation>速率：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 tokens/s%2</source>
        <translation>%1 tokens/s%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (counted)</source>
        <translation> （本地统计）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tokens: %1</source>
        <translation>token：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 reasoning + %2 answer</source>
        <translation>推理 %1 + 回答 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Finish: %1</source>
        <translation>结束原因：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server then: KV %1 · queue %2</source>
        <translation>当时的服务器：KV %1 · 队列 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Markdown (*.md);;JSON (*.json)</source>
        <translation>Markdown (*.md);;JSON (*.json)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
</context>
<context>
    <name>Probe</name>
    <message>
        <location filename="../../backend/probe/nvidiasmi.cpp" line="+112"/>
        <source>A GPU sample has %1 fields instead of 9: &quot;%2&quot;</source>
        <translation>GPU 采样有 %1 个字段而不是 9 个：“%2”</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A GPU sample has no index: &quot;%1&quot;</source>
        <translation>GPU 采样没有编号：“%1”</translation>
    </message>
    <message>
        <location filename="../../backend/probe/hostfacts.cpp" line="+43"/>
        <source>/proc/meminfo has no MemTotal line.</source>
        <translation>/proc/meminfo 中没有 MemTotal 行。</translation>
    </message>
</context>
<context>
    <name>Prometheus</name>
    <message>
        <location filename="../../backend/prometheus/promclient.cpp" line="+96"/>
        <source>The CA file %1 holds no PEM certificate: choose the one that signed Prometheus&apos; certificate.</source>
        <translation>CA 文件 %1 中没有 PEM 证书：请选择签发 Prometheus 证书的那一个。</translation>
    </message>
    <message>
        <location line="-45"/>
        <source>Prometheus at %1 answered more than %2 MB to one query: too much for a fleet view; narrow what it keeps (the host label) or ask its operator.</source>
        <translation>%1 的 Prometheus 对一次查询返回超过 %2 MB：对机群视图来说太多了；请缩小它保存的范围（主机标签）或询问其运维人员。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Prometheus at %1 refused the credentials (HTTP %2): check the token or password in Settings → Fleet.</source>
        <translation>%1 的 Prometheus 拒绝了凭据（HTTP %2）：请在“设置 → 机群”中检查 token 或密码。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>no answer in time</source>
        <translation>没有及时应答</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Prometheus at %1 did not answer: %2.</source>
        <translation>%1 的 Prometheus 没有应答：%2。</translation>
    </message>
    <message>
        <location filename="../../backend/prometheus/promconfig.cpp" line="+39"/>
        <source>No Prometheus address is set: give one in Settings → Fleet, or with --prometheus-url.</source>
        <translation>未设置 Prometheus 地址：请在“设置 → 机群”中填写，或使用 --prometheus-url。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>“%1” is not a Prometheus address: write it as http://host:9090 or https://host/prefix.</source>
        <translation>“%1”不是 Prometheus 地址：请写成 http://host:9090 或 https://host/prefix。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No label names the hosts: use instance, Hostname or your own.</source>
        <translation>没有用于命名主机的标签：请使用 instance、Hostname 或你自己的标签。</translation>
    </message>
    <message>
        <location filename="../../backend/prometheus/promfleetsource.cpp" line="+102"/>
        <source>Could not reach Prometheus at %1 through %2: %3</source>
        <translation>无法经由 %2 连接 %1 的 Prometheus：%3</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Prometheus gave no answer.</source>
        <translation>Prometheus 没有应答。</translation>
    </message>
    <message>
        <location filename="../../backend/prometheus/promresponse.cpp" line="+40"/>
        <source>an empty body</source>
        <translation>空的正文</translation>
    </message>
    <message>
        <location line="+212"/>
        <source>Prometheus refused the query (%1%2): %3</source>
        <translation>Prometheus 拒绝了查询（%1%2）：%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no reason given</source>
        <translation>未给出原因</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The address did not answer as Prometheus&apos; API does (HTTP %1, %2): check the URL.</source>
        <translation>该地址的应答不像 Prometheus 的 API（HTTP %1，%2）：请检查 URL。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Prometheus answered a %1 where a vector was expected.</source>
        <translation>Prometheus 返回了 %1，而预期是 vector。</translation>
    </message>
    <message>
        <location filename="../../backend/prometheus/promfleet.cpp" line="+294"/>
        <source>Prometheus cannot scrape this host&apos;s exporters (up is 0 for %1 of its targets): the exporters are down or blocked, which says nothing of the host itself. Check them, or read the host over SSH.</source>
        <translation>Prometheus 无法抓取这台主机的导出器（其中 %1 个目标的 up 为 0）：导出器已停止或被阻挡，这并不说明主机本身的状态。请检查导出器，或通过 SSH 读取这台主机。</translation>
    </message>
</context>
<context>
    <name>PrometheusBox</name>
    <message>
        <location filename="../../ui/fleet/prometheusbox.cpp" line="+45"/>
        <source>Fleet data source</source>
        <translation>机群数据来源</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Each host over SSH</source>
        <translation>每台主机经由 SSH</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prometheus (SSH for hosts it does not know)</source>
        <translation>Prometheus（它不知道的主机经由 SSH）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>directly; or an inventory host to tunnel through</source>
        <translation>直接连接；或经由主机清单中的一台主机建立隧道</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The label that names a host in your series: instance (its port is dropped), Hostname (dcgm-exporter), hostname (AMD&apos;s exporter) or your own.</source>
        <translation>在你的序列中为主机命名的标签：instance（去掉端口）、Hostname（dcgm-exporter）、hostname（AMD 的 exporter）或你自己的标签。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>label value=inventory name, … (only where they differ)</source>
        <translation>标签值=主机清单名称, …（仅在两者不同时）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the system&apos;s certificates</source>
        <translation>系统的证书</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bearer token</source>
        <translation>Bearer token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User and password</source>
        <translation>用户名和密码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>user (for a password)</source>
        <translation>用户（用于密码）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>kept in the keyring; leave empty to keep the saved one</source>
        <translation>保存在密钥环中；留空则保留已保存的</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Figures from:</source>
        <translation>数据来自：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prometheus URL:</source>
        <translation>Prometheus URL：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reached:</source>
        <translation>连接方式：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host label:</source>
        <translation>主机标签：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host names:</source>
        <translation>主机名称：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CA file:</source>
        <translation>CA 文件：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sign in:</source>
        <translation>登录：</translation>
    </message>
    <message>
        <location line="+48"/>
        <location line="+19"/>
        <source>Asking Prometheus…</source>
        <translation>正在询问 Prometheus…</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Every host is watched over SSH.</source>
        <translation>所有主机都经由 SSH 监视。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Every host is watched over its own SSH connection.</source>
        <translation>每台主机都经由它自己的 SSH 连接监视。</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>Prometheus answers: %n host(s) in %1 ms.</source>
        <translation>
            <numerusform>Prometheus 已应答：%1 ms 内 %n 台主机。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../../ui/deploy/stepdetail.cpp" line="+42"/>
        <source>Not run yet</source>
        <translation>尚未运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>✓ Passed</source>
        <translation>✓ 通过</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>⚠ Passed with a warning</source>
        <translation>⚠ 通过，有警告</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>✗ Failed</source>
        <translation>✗ 失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Could not tell</source>
        <translation>无法判断</translation>
    </message>
    <message>
        <location filename="../../ui/playground/loadtestpanel.cpp" line="-241"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>—</source>
        <translation>—</translation>
    </message>
</context>
<context>
    <name>Recipe</name>
    <message>
        <location filename="../../backend/recipe/deployment.cpp" line="+84"/>
        <location line="+131"/>
        <source>Flashdeck has not deployed to %1.</source>
        <translation>Flashdeck 尚未部署到 %1。</translation>
    </message>
    <message>
        <location line="-125"/>
        <source>The deployment manifest %1 is damaged (%2). Deploy again.</source>
        <translation>部署清单 %1 已损坏（%2）。请重新部署。</translation>
    </message>
    <message>
        <location line="+10"/>
        <location filename="../../backend/recipe/pins.cpp" line="+85"/>
        <source>not a JSON object</source>
        <translation>不是 JSON 对象</translation>
    </message>
    <message>
        <location filename="../../backend/recipe/launchspec.cpp" line="+40"/>
        <source>%1 has no launch in this recipe. %2</source>
        <translation>%1 在此配方中没有启动方式。%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 needs its extra flags, which the deployment page does not give. %2</source>
        <translation>%1 需要额外的参数，而部署页没有给出。%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>TP %1 with the NVFP4 checkpoint on ROCm is refused: it runs only at TP 4 or lower. Use two TP 4 services behind the Router.</source>
        <translation>ROCm 上以 TP %1 运行 NVFP4 检查点会被拒绝：它只能在 TP 4 或更低时运行。请在 Router 后面部署两个 TP 4 服务。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Exposing the port beyond loopback needs an API key.</source>
        <translation>将端口暴露到回环地址之外需要 API 密钥。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The API key is too short: use at least 32 random bytes.</source>
        <translation>API 密钥太短：请使用至少 32 个随机字节。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The image is not pinned to a digest: run the pin step first.</source>
        <translation>镜像没有固定到 digest：请先运行固定步骤。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The model revision is not pinned to a commit: run the pin step first.</source>
        <translation>模型 revision 没有固定到 commit：请先运行固定步骤。</translation>
    </message>
    <message>
        <location line="+271"/>
        <source>Replica %1 lists %2 GPUs for TP %3: give one GPU per rank.</source>
        <translation>副本 %1 为 TP %3 列出了 %2 块 GPU：请为每个 rank 指定一块 GPU。</translation>
    </message>
    <message>
        <location filename="../../backend/recipe/licenseterms.cpp" line="-78"/>
        <source>%1: not a JSON object</source>
        <translation>%1：不是 JSON 对象</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>&quot;id&quot;, &quot;version&quot; and &quot;name&quot; must be non-empty strings</source>
        <translation>“id”、“version”和“name”必须是非空字符串</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&quot;full_text_url&quot; must be an https:// link to the full licence</source>
        <translation>“full_text_url”必须是指向许可证全文的 https:// 链接</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&quot;summary&quot; must be a non-empty array of paragraphs</source>
        <translation>“summary”必须是非空的段落数组</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&quot;confirmations&quot; must be a non-empty array of sentences</source>
        <translation>“confirmations”必须是非空的句子数组</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&quot;uses&quot; must be a non-empty array</source>
        <translation>“uses”必须是非空数组</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>each use needs an &quot;id&quot; and a &quot;label&quot;</source>
        <translation>每种用途都需要“id”和“label”</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The built-in licence summary is missing from this build.</source>
        <translation>此版本缺少内置的许可证摘要。</translation>
    </message>
    <message>
        <location filename="../../backend/recipe/pins.cpp" line="-65"/>
        <source>The deployment on %1 never reached its pins (no %2 recorded): run &apos;flashdeck deploy %1&apos; to pin and deploy it.</source>
        <translation>%1 上的部署从未到达其固定版本（没有记录 %2）：请运行“flashdeck deploy %1”进行固定和部署。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>image digest</source>
        <translation>镜像 digest</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model revision</source>
        <translation>模型 revision</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>&quot;image_digest&quot; is not a sha256 digest</source>
        <translation>“image_digest”不是 sha256 digest</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&quot;model_revision&quot; is not a 40-character commit id</source>
        <translation>“model_revision”不是 40 位的 commit id</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot read the pins file %1: %2.</source>
        <translation>无法读取固定文件 %1：%2。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The pins file %1 is not one &apos;flashdeck pins lock&apos; writes: %2.</source>
        <translation>固定文件 %1 不是“flashdeck pins lock”写出的格式：%2。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>image digest %1 where the pins say %2</source>
        <translation>镜像 digest 为 %1，而固定文件中为 %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>model revision %1 where the pins say %2</source>
        <translation>模型 revision 为 %1，而固定文件中为 %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>profile %1 where the pins say %2</source>
        <translation>配置为 %1，而固定文件中为 %2</translation>
    </message>
    <message>
        <location filename="../../backend/recipe/profilechoice.cpp" line="+30"/>
        <source>%1 runs an image you choose. Suggested: %2 — %3.</source>
        <translation>%1 运行由你选择的镜像。建议：%2 —— %3。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>Port %1 is one of the services&apos; behind the router: give the router another.</source>
        <translation>端口 %1 是 Router 后面某个服务的端口：请给 Router 另选一个。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&quot;%1&quot; is not a GPU index: give the GPUs as nvidia-smi numbers them, e.g. 4,5,6,7.</source>
        <translation>“%1”不是 GPU 编号：请按 nvidia-smi 的编号给出 GPU，例如 4,5,6,7。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>GPU %1 is listed twice: each rank needs a GPU of its own.</source>
        <translation>GPU %1 被列出了两次：每个 rank 都需要自己的 GPU。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 needs %2 GPUs (%3 services × TP %4, in order), not %5.</source>
        <translation>%1 需要 %2 块 GPU（%3 个服务 × TP %4，按顺序），而不是 %5 块。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 needs %2 GPUs (one per TP rank), not %3; or a multiple of %2 for one service per %2 GPUs behind the SGLang Router.</source>
        <translation>%1 需要 %2 个 GPU（每个 TP rank 一个），而不是 %3 个；或 %2 的倍数，每 %2 个 GPU 一个服务，位于 SGLang Router 之后。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 needs %2 GPUs (one per TP rank), not %3.</source>
        <translation>%1 需要 %2 块 GPU（每个 TP rank 一块），而不是 %3 块。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>No profile &quot;%1&quot; in this build&apos;s recipe (see &apos;flashdeck recipes list&apos;).</source>
        <translation>此版本的配方中没有配置“%1”（见“flashdeck recipes list”）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The deployment&apos;s manifest names no GPUs: deploy again.</source>
        <translation>部署清单中没有记录 GPU：请重新部署。</translation>
    </message>
    <message>
        <location filename="../../backend/recipe/recipe.cpp" line="+45"/>
        <source>a string (missing)</source>
        <translation>字符串（缺失）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>a non-empty string</source>
        <translation>非空字符串</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>a number from %1 to %2</source>
        <translation>%1 到 %2 之间的数字</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>a list of strings</source>
        <translation>字符串列表</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>an object (missing)</source>
        <translation>对象（缺失）</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>verified-upstream, unverified or generator-only</source>
        <translation>verified-upstream、unverified 或 generator-only</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>nvidia or amd</source>
        <translation>nvidia 或 amd</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>a non-empty list of {gpus, port}</source>
        <translation>非空的 {gpus, port} 列表</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>a list of %1 GPU indexes (one per TP rank)</source>
        <translation>%1 个 GPU 编号的列表（每个 TP rank 一个）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>GPU indexes from 0 to %1</source>
        <translation>0 到 %1 之间的 GPU 编号</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>a profile of one service and no router</source>
        <translation>只有一个服务且没有 router 的配置</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>an object of strings</source>
        <translation>字符串对象</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>%1 is not valid JSON. Check it with a JSON validator.</source>
        <translation>%1 不是有效的 JSON。请用 JSON 校验工具检查。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>1 (this Flashdeck reads schema 1)</source>
        <translation>1（此版本的 Flashdeck 读取 schema 1）</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>a non-empty list</source>
        <translation>非空列表</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>an id not used before</source>
        <translation>未被使用过的 id</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cannot read the recipe %1: %2</source>
        <translation>无法读取配方 %1：%2</translation>
    </message>
    <message>
        <location filename="../../backend/recipe/generatorcommand.cpp" line="+105"/>
        <source>The docker run option &quot;%1&quot; is not one Flashdeck knows: it cannot tell where the image is. Leave it out: Flashdeck creates the container itself.</source>
        <translation>docker run 选项“%1”不是 Flashdeck 认识的选项：无法判断镜像在哪里。请去掉它：容器由 Flashdeck 自己创建。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The docker run option %1 has no value.</source>
        <translation>docker run 选项 %1 没有值。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 replaces SGLang&apos;s server with another program: Flashdeck runs the server itself. Leave it out.</source>
        <translation>%1 会用另一个程序替换 SGLang 的服务器：服务器由 Flashdeck 自己运行。请去掉它。</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Flashdeck gives the container the GPUs of the deployment</source>
        <translation>Flashdeck 为容器分配此次部署的 GPU</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Flashdeck publishes the server&apos;s port on the host&apos;s loopback only</source>
        <translation>Flashdeck 只在主机的回环地址上发布服务器端口</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Flashdeck maps the Hugging Face and kernel caches (and a model folder) itself</source>
        <translation>Flashdeck 自己映射 Hugging Face 和内核缓存（以及模型文件夹）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Flashdeck sets the shared memory and IPC of the profile</source>
        <translation>Flashdeck 按配置设置共享内存和 IPC</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Flashdeck names, labels and starts the container itself</source>
        <translation>Flashdeck 自己为容器命名、加标签并启动它</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Flashdeck gives the container the devices it needs and no other privileges</source>
        <translation>Flashdeck 只给容器所需的设备，不给其他特权</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>not carried over to Flashdeck&apos;s container</source>
        <translation>不会带入 Flashdeck 的容器</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 there is no command: Flashdeck expects SGLang&apos;s server, python3 -m sglang.launch_server or sglang serve, as the generator prints it.</source>
        <translation>%1 没有命令：Flashdeck 需要 SGLang 的服务器，即生成器打印的 python3 -m sglang.launch_server 或 sglang serve。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 Flashdeck expects SGLang&apos;s server, python3 -m sglang.launch_server or sglang serve, not &quot;%2&quot;: paste the command SGLang&apos;s configuration generator printed.</source>
        <translation>%1 Flashdeck 需要 SGLang 的服务器，即 python3 -m sglang.launch_server 或 sglang serve，而不是“%2”：请粘贴 SGLang 配置生成器打印的命令。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>it takes %1 from your own shell, which Flashdeck does not read: write %1=VALUE (a Hugging Face token is passed by Flashdeck when you give it one)</source>
        <translation>它从你自己的 shell 中取 %1，而 Flashdeck 不读取你的 shell：请写成 %1=VALUE（给出 Hugging Face 令牌时由 Flashdeck 传入）</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&quot;%1&quot; belongs to no server flag: SGLang&apos;s server takes its settings as --flag value (word %2 of the command).</source>
        <translation>“%1”不属于任何服务器参数：SGLang 服务器的设置写作 --flag value（命令的第 %2 个词）。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The command is empty: paste what SGLang&apos;s configuration generator printed.</source>
        <translation>命令为空：请粘贴 SGLang 配置生成器打印的内容。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 is set for the docker client, not the server: give it to the container with -e %1.</source>
        <translation>%1 是为 docker 客户端设置的，不是为服务器：请用 -e %1 交给容器。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The docker run command names no image.</source>
        <translation>docker run 命令没有给出镜像。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>After the image %1,</source>
        <translation>在镜像 %1 之后，</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>At the start of the command,</source>
        <translation>在命令开头，</translation>
    </message>
    <message>
        <location filename="../../backend/recipe/importedlaunch.cpp" line="+36"/>
        <source>%1 takes a number of GPUs, not &quot;%2&quot;.</source>
        <translation>%1 取 GPU 数量，而不是“%2”。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>The command sets %1 %2; Flashdeck sets %1 %3 (%4). Leave %1 out of the command. Nothing was pulled.</source>
        <translation>命令设置了 %1 %2；Flashdeck 设置 %1 %3（%4）。请从命令中去掉 %1。未拉取任何内容。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The command serves another model (%1 %2): Flashdeck deploys %3 at its pinned revision. Generate the command for %3. Nothing was pulled.</source>
        <translation>命令服务的是另一个模型（%1 %2）：Flashdeck 部署的是固定修订版本的 %3。请为 %3 生成命令。未拉取任何内容。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the pinned revision; --model-revision picks another commit</source>
        <translation>固定的修订版本；--model-revision 可选择其他提交</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>inside the container; the port is published on the host&apos;s loopback only</source>
        <translation>在容器内；端口只发布在主机的回环地址上</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>deploy --port %1 picks that port</source>
        <translation>deploy --port %1 可选择该端口</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a generated key</source>
        <translation>生成的密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>at least 32 random bytes, kept in the system keyring</source>
        <translation>至少 32 个随机字节，保存在系统密钥环中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a switch: the monitor reads /metrics</source>
        <translation>开关：监控读取 /metrics</translation>
    </message>
    <message>
        <location line="+134"/>
        <source>%1 has no verified command on the deployment page: for GB-series, B200, H200 or AMD GPUs, generate the command with SGLang&apos;s configuration generator, and do not put its parameters into the 4 × B300 baseline without validating them again. Give the generator&apos;s command with --launch-command FILE (&apos;-&apos; reads it from standard input); Flashdeck keeps its flags and sets the model, its pinned revision, the port and the key. Nothing was pulled.</source>
        <translation>%1 在部署页面上没有经过验证的命令：对于 GB 系列、B200、H200 或 AMD GPU，请用 SGLang 的配置生成器生成命令，且未经重新验证不要把其参数代入 4 × B300 基线。用 --launch-command FILE 给出生成器的命令（“-”表示从标准输入读取）；Flashdeck 保留其参数，并设置模型、其固定的修订版本、端口和密钥。未拉取任何内容。</translation>
    </message>
    <message>
        <location line="-106"/>
        <source>The command asks for TP %1 on AMD GPUs: on ROCm the model&apos;s NVFP4 checkpoint runs only at TP 4 or lower, so the server would refuse it after a %2 GB image pull and a %3 GB weights download. Generate the command with TP 4: on an 8-GPU host Flashdeck runs two TP 4 services behind the SGLang Router. Nothing was pulled.</source>
        <translation>命令要求在 AMD GPU 上使用 TP %1：在 ROCm 上，该模型的 NVFP4 检查点只能以 TP 4 或更低运行，因此服务器会在拉取 %2 GB 镜像并下载 %3 GB 权重之后拒绝它。请用 TP 4 生成命令：在 8 GPU 主机上，Flashdeck 会在 SGLang Router 之后运行两个 TP 4 服务。未拉取任何内容。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The command runs TP %1 × DP %2 × PP %3 = %4 GPUs per server, but %5 gives each server %6. Generate the command for %6 GPUs, or give the GPUs it is for with --gpus. Nothing was pulled.</source>
        <translation>命令运行 TP %1 × DP %2 × PP %3 = 每个服务器 %4 个 GPU，但 %5 给每个服务器 %6 个。请为 %6 个 GPU 生成命令，或用 --gpus 给出命令所针对的 GPU。未拉取任何内容。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>%1: not carried over: Flashdeck gives the container its GPUs</source>
        <translation>%1：不带入：Flashdeck 为容器分配其 GPU</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>HF_TOKEN: not carried over: Flashdeck passes the token you give it, never in a file</source>
        <translation>HF_TOKEN：不带入：Flashdeck 传入你给出的令牌，从不写入文件</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>the model this deployment serves</source>
        <translation>此次部署服务的模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pinned to a commit at the pin step</source>
        <translation>在固定步骤中固定到某个提交</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>inside the container; published on the host&apos;s 127.0.0.1:%1 only</source>
        <translation>在容器内；只发布在主机的 127.0.0.1:%1 上</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the service&apos;s port</source>
        <translation>服务的端口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(generated)</source>
        <translation>（已生成）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>32 random bytes, kept in the system keyring</source>
        <translation>32 个随机字节，保存在系统密钥环中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>added: the monitor reads /metrics</source>
        <translation>已添加：监控读取 /metrics</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>%1 (%2 services behind the Router)</source>
        <translation>%1（%2 个服务位于 Router 之后）</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>The generator&apos;s arguments, as given (TP %1 × DP %2 × PP %3 = %4 GPUs per server):</source>
        <translation>生成器的参数，按原样（TP %1 × DP %2 × PP %3 = 每个服务器 %4 个 GPU）：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Image: %1 (pinned to its digest at the pin step)</source>
        <translation>镜像：%1（在固定步骤中固定到其摘要）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Environment: %1</source>
        <translation>环境变量：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What Flashdeck sets:</source>
        <translation>Flashdeck 设置的内容：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not carried over:</source>
        <translation>不带入的内容：</translation>
    </message>
    <message>
        <location filename="../../backend/recipe/shellwords.cpp" line="+23"/>
        <source>a semicolon, which starts another command</source>
        <translation>分号，它会开始另一条命令</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&quot;&amp;&amp;&quot;, which runs another command</source>
        <translation>“&amp;&amp;”，它会运行另一条命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&quot;&amp;&quot;, which runs it in the background</source>
        <translation>“&amp;”，它会在后台运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a pipe, which runs another command</source>
        <translation>管道，它会运行另一条命令</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a redirection, which reads or writes a file</source>
        <translation>重定向，它会读取或写入文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a parenthesis, which starts a subshell</source>
        <translation>括号，它会开启子 shell</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a backtick, which runs a command and inserts its output</source>
        <translation>反引号，它会运行命令并插入其输出</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>a file-name pattern, which the shell replaces with matching files</source>
        <translation>文件名通配符，shell 会把它替换为匹配的文件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>bash&apos;s $&apos;…&apos; quoting, which other shells read differently</source>
        <translation>bash 的 $&apos;…&apos; 引号，其他 shell 的解读不同</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&quot;$(&quot;, which runs a command and inserts its output</source>
        <translation>“$(”，它会运行命令并插入其输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&quot;$&quot;, which inserts a variable of your shell</source>
        <translation>“$”，它会插入你 shell 中的变量</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a NUL character, which no command line can hold</source>
        <translation>NUL 字符，任何命令行都无法容纳</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The command has &quot;%1&quot; at %2: %3. Flashdeck reads the generator&apos;s command as words and never runs it through a shell: paste the one command the generator printed, with the values written out.</source>
        <translation>命令在%2处有“%1”：%3。Flashdeck 把生成器的命令当作词来读，从不经 shell 运行：请粘贴生成器打印的那一条命令，并写出各个值。</translation>
    </message>
    <message>
        <location line="+190"/>
        <source>line %1, column %2</source>
        <translation>第 %1 行第 %2 列</translation>
    </message>
    <message>
        <location line="-61"/>
        <source>A second command starts at %1: a line break ends a command. Give one command; end each of its lines but the last with a backslash, as the generator prints it.</source>
        <translation>第二条命令从%1开始：换行会结束一条命令。请只给一条命令；除最后一行外，每行以反斜杠结尾，就像生成器打印的那样。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The command ends with a backslash at %1: a line is missing after it. Paste the whole command.</source>
        <translation>命令在%1处以反斜杠结尾：其后缺少一行。请粘贴完整的命令。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The quote (%1) opened at %2 is never closed. Paste the whole command, or close the quote.</source>
        <translation>在%2处打开的引号（%1）从未闭合。请粘贴完整的命令，或闭合引号。</translation>
    </message>
    <message>
        <location filename="../../backend/recipe/recipetexts.cpp" line="+13"/>
        <source>The Hugging Face file summary shows about 220B parameters, not 428B: the expert weights are packed FP4, two values in each byte, and the summary counts each byte as one parameter. About 23B parameters are active per token, but all the weights must be loaded or sharded across the GPUs, not only the active ones.</source>
        <translation>Hugging Face 的文件摘要显示约 220B 参数，而不是 428B：专家权重以 FP4 打包存储，每个字节存放两个值，而摘要把每个字节计为一个参数。每个 token 约激活 23B 参数，但所有权重都必须加载或在各 GPU 间切分，而不仅是激活的那部分。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 %2 GB</source>
        <translation>%1 %2 GB</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>This deployment runs the Low-Latency profile: its MonoKernel serves batch-size-1 steps only, and larger batches take the standard path, so with several requests in flight it serves less than the Balanced profile. Plan capacity under concurrency with Balanced.</source>
        <translation>此部署运行的是低延迟（Low-Latency）配置：其 MonoKernel 只处理批大小为 1 的步骤，更大的批次走标准路径，因此在多个请求并发时，它的服务能力低于均衡（Balanced）配置。并发场景下的容量规划请以均衡配置为准。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>SGLang&apos;s published figures are upstream references, not a MiniMax guarantee, and none are published for the Balanced recipe: measure with your own prompt and output lengths, multimodal share and concurrency.</source>
        <translation>SGLang 公布的数据是上游参考值，并非 MiniMax 的保证，且均衡（Balanced）配方没有公布任何数据：请用你自己的提示词与输出长度、多模态占比和并发量来测量。</translation>
    </message>
</context>
<context>
    <name>RecipeText</name>
    <message>
        <location filename="data-texts.h" line="-47"/>
        <source>MiniMax-M3.1-Flash on SGLang</source>
        <translation>SGLang 上的 MiniMax-M3.1-Flash</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model card lists other inference frameworks; they are outside this recipe&apos;s verified scope: follow their upstream recipes completely.</source>
        <translation>模型卡还列出了其他推理框架；它们不在本配方的已验证范围内：请完整遵循其上游配方。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Experimental: the SGLang Cookbook supports it through a development image; pin the image digest and the model revision, and validate with your own load.</source>
        <translation>实验性：SGLang Cookbook 通过开发镜像支持它；请固定镜像 digest 和模型 revision，并用你自己的负载验证。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>4 × B300, Balanced</source>
        <translation>4 × B300, Balanced</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>On 4 × B300 at --mem-fraction-static 0.8 the KV pool holds about 10.4M tokens</source>
        <translation>在 4 × B300、--mem-fraction-static 0.8 时，KV 池约可容纳 10.4M token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Room for about 252 GB of weights, the image and caches; the GPUs are 0-3 unless the operator changes them</source>
        <translation>需要容纳约 252 GB 权重、镜像和缓存的空间；除非操作员更改，GPU 为 0-3</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server&apos;s port is published on the host&apos;s loopback only</source>
        <translation>服务器端口只发布在主机回环地址上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The first start downloads about 252 GB and compiles kernels; the kernel cache is kept on the host</source>
        <translation>首次启动会下载约 252 GB 并编译内核；内核缓存保留在主机上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The DSpark draft loads from the checkpoint&apos;s dspark/ subfolder at the same revision</source>
        <translation>DSpark 草稿模型从检查点同一 revision 的 dspark/ 子目录加载</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>On an 8-GPU B300 node: two TP 4 services (GPUs 0-3 and 4-7) behind the SGLang Router with --policy cache_aware, so later turns of a session reach the service holding its prefix; --gpus 0,1,2,3 runs one service</source>
        <translation>在 8 GPU 的 B300 节点上：两个 TP 4 服务（GPU 0-3 和 4-7）位于 SGLang Router 之后，使用 --policy cache_aware，使会话的后续轮次到达持有其前缀的服务；--gpus 0,1,2,3 只运行一个服务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>4 × B300, Low-Latency (MonoKernel)</source>
        <translation>4 × B300, Low-Latency (MonoKernel)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MonoKernel keeps a separate copy of the routed experts (54.1 GiB per rank), so the KV pool drops to about 6.5M tokens. MonoKernel serves only batch-size-1 steps: larger batches take the standard path, so under concurrency it serves less than the Balanced profile. Its extra flags are not on the deployment page: enter them from the SGLang Cookbook.</source>
        <translation>MonoKernel 会为路由专家另存一份副本（每个 rank 54.1 GiB），因此 KV 池降至约 6.5M token。MonoKernel 只服务 batch size 为 1 的步骤：更大的批次走标准路径，因此在并发下其吞吐低于 Balanced 配置。它的额外参数不在部署页上：请按 SGLang Cookbook 填写。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MonoKernel keeps its own copy of the routed experts (54.1 GiB per rank): the KV pool drops to about 6.5M tokens</source>
        <translation>MonoKernel 为路由专家保留自己的副本（每个 rank 54.1 GiB）：KV 池降至约 6.5M token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MonoKernel serves batch-size-1 steps only: under concurrency it serves less than Balanced</source>
        <translation>MonoKernel 只服务 batch size 为 1 的步骤：在并发下其吞吐低于 Balanced</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>8 × MI355X, two TP 4 services behind the SGLang Router</source>
        <translation>8 × MI355X，SGLang Router 后面的两个 TP 4 服务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not verified upstream: SGLang asks AMD users to generate commands with its configuration generator. On ROCm the NVFP4 checkpoint runs at TP 4 or lower, hence two services and the Router with --policy cache_aware.</source>
        <translation>未经上游验证：SGLang 请 AMD 用户用其配置生成器生成命令。在 ROCm 上 NVFP4 检查点只能以 TP 4 或更低运行，因此使用两个服务加上 --policy cache_aware 的 Router。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not on the deployment page, which sends AMD users to SGLang&apos;s configuration generator; the SGLang Cookbook&apos;s MiniMax-M3 page names this ROCm build for MI355X. It was built for MiniMax-M3, and &apos;latest&apos; is a floating tag: what it holds changes under you</source>
        <translation>部署页上没有给出（它让 AMD 用户使用 SGLang 的配置生成器）；SGLang Cookbook 的 MiniMax-M3 页面为 MI355X 列出了这个 ROCm 构建。它是为 MiniMax-M3 构建的，且“latest”是浮动标签：其内容可能在你不知情时改变</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>On ROCm the NVFP4 checkpoint runs only at TP 4 or lower: two TP 4 services behind a Router on 8 GPUs</source>
        <translation>在 ROCm 上 NVFP4 检查点只能以 TP 4 或更低运行：8 块 GPU 上、Router 后面的两个 TP 4 服务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>For this hardware, generate the command with SGLang&apos;s configuration generator; do not reuse the B300 flags</source>
        <translation>针对此硬件，请用 SGLang 的配置生成器生成命令；不要沿用 B300 的参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Several services behind one entry point: the SGLang Router with --policy cache_aware</source>
        <translation>多个服务共用一个入口：使用 --policy cache_aware 的 SGLang Router</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B200</source>
        <translation>B200</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Generate the command with SGLang&apos;s configuration generator; do not reuse the B300 flags without re-validating.</source>
        <translation>请用 SGLang 的配置生成器生成命令；未经重新验证不要沿用 B300 的参数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Per-GPU memory as the deployment page gives it: B300 288 GB, B200 192 GB, GB200 186 GB</source>
        <translation>部署页给出的单卡显存：B300 288 GB、B200 192 GB、GB200 186 GB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GB200</source>
        <translation>GB200</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>H200</source>
        <translation>H200</translation>
    </message>
</context>
<context>
    <name>Security</name>
    <message>
        <location filename="../../backend/security/secretstore.cpp" line="+16"/>
        <source>No system keyring here (no D-Bus session, as on a headless server or in CI): secrets stay in memory for this run only and are never written to disk.</source>
        <translation>这里没有系统密钥环（没有 D-Bus 会话，例如无头服务器或 CI）：机密只在本次运行中保存在内存里，绝不会写入磁盘。</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>The system keyring refused to store the secret (%1): it stays in memory for this run only. Unlock or set up the keyring to keep it.</source>
        <translation>系统密钥环拒绝保存机密（%1）：它只在本次运行中保存在内存里。请解锁或设置密钥环以保留它。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>The system keyring could not be read (%1): secrets stay in memory for this run only.</source>
        <translation>无法读取系统密钥环（%1）：机密只在本次运行中保存在内存里。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The system keyring could not delete the secret: %1</source>
        <translation>系统密钥环无法删除该机密：%1</translation>
    </message>
</context>
<context>
    <name>SettingsPage</name>
    <message>
        <location filename="../../ui/pages/settingspage.cpp" line="+50"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Flashdeck speaks %1 now.</source>
        <translation>Flashdeck 当前使用%1。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>English</source>
        <comment>The name of the language of this translation, in that language</comment>
        <translation>简体中文</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Flashdeck speaks the language chosen from its next start. The command line follows it too; --lang overrides it for one run.</source>
        <translation>Flashdeck 从下次启动起使用所选语言。命令行也会随之改变；--lang 可在单次运行中覆盖它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>GPU memory above:</source>
        <translation>显存高于：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queued requests above:</source>
        <translation>排队请求高于：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time to first token p95 above:</source>
        <translation>首 token 延迟 p95 高于：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Aborted requests above:</source>
        <translation>中止请求高于：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Free disk below:</source>
        <translation>空闲磁盘低于：</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Show a desktop notification when an alert begins</source>
        <translation>告警开始时显示桌面通知</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This desktop has no system tray: alerts show on the Fleet page only.</source>
        <translation>此桌面没有系统托盘：告警只显示在“机群”页上。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Fleet</source>
        <translation>机群</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>none: pins are shown, not compared</source>
        <translation>无：只显示固定版本，不作比较</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A pins file written by &apos;flashdeck pins lock HOST --output FILE&apos;: every host whose deployment runs another image digest, model revision or profile is flagged.</source>
        <translation>由“flashdeck pins lock HOST --output FILE”写出的固定文件：部署运行的镜像 digest、模型 revision 或配置与之不同的主机都会被标记。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Hosts are compared with image %1, model revision %2, profile %3.</source>
        <translation>各主机将与镜像 %1、模型 revision %2、配置 %3 比较。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No pins file: the Pins column shows what each host runs.</source>
        <translation>没有固定文件：“固定版本”列显示每台主机运行的内容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The fleet&apos;s pins file</source>
        <translation>机群的固定文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pins files (*.json);;All files (*)</source>
        <translation>固定文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Pins file:</source>
        <translation>固定文件：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep chart history on disk between runs</source>
        <translation>在两次运行之间于磁盘上保留图表历史</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Each host&apos;s last 24 hours of GPU and server charts are written to %1 every ten minutes and when Flashdeck closes (numbers only, up to about 15 MB per host). Turning this off leaves the files there.</source>
        <translation>每台主机最近 24 小时的 GPU 和服务器图表每十分钟以及 Flashdeck 关闭时写入 %1（只有数字，每台主机最多约 15 MB）。关闭此项不会删除已有文件。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Playground</source>
        <translation>调试台</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>none: only attached files</source>
        <translation>无：只接受附加的文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exact host names, or *.example.org for its subdomains, separated by commas. Flashdeck fetches an image URL itself (https only, public addresses only, no redirects, size and time capped) and sends the bytes; the GPU host never fetches a URL.</source>
        <translation>精确的主机名，或用 *.example.org 表示其子域名，以逗号分隔。Flashdeck 自行获取图片 URL（仅 https、仅公网地址、不跟随重定向、限制大小和时间）并发送字节；GPU 主机从不获取 URL。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Allowed image hosts:</source>
        <translation>允许的图片主机：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The Logs page keeps this many of the newest lines in memory (about 200 bytes each).</source>
        <translation>“日志”页在内存中保留这么多最新的行（每行约 200 字节）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Lines kept per host:</source>
        <translation>每台主机保留的行数：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (set by --config-dir)</source>
        <translation> （由 --config-dir 设置）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Configuration:</source>
        <translation>配置：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host inventory:</source>
        <translation>主机清单：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deployments:</source>
        <translation>部署：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Log file:</source>
        <translation>日志文件：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Log levels:</source>
        <translation>日志级别：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>info (set FLASHDECK_LOG=ssh=debug,… to change)</source>
        <translation>info（设置 FLASHDECK_LOG=ssh=debug,… 可更改）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>About</source>
        <translation>关于</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Flashdeck:</source>
        <translation>Flashdeck：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Qt:</source>
        <translation>Qt：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>libssh:</source>
        <translation>libssh：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secrets:</source>
        <translation>机密：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flashdeck never writes API keys, passwords or passphrases to these files or to its logs; logged text passes through a redactor first.</source>
        <translation>Flashdeck 从不把 API 密钥、密码或口令写入这些文件或日志；记录的文本会先经过脱敏处理。</translation>
    </message>
</context>
<context>
    <name>Ssh</name>
    <message>
        <location filename="../../backend/ssh/authenticator.cpp" line="+89"/>
        <source>%1 offers no authentication method Flashdeck can use (it accepts public key, keyboard-interactive and password). Check the server&apos;s sshd_config, or that a key for %2 exists.</source>
        <translation>%1 没有提供 Flashdeck 可用的认证方式（它接受公钥、键盘交互和密码）。请检查服务器的 sshd_config，或是否存在 %2 的密钥。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 refused %2@%1 with every method we could try: %3. Check the user name, that your public key is in the server&apos;s authorized_keys, or the password.</source>
        <translation>%1 拒绝了 %2@%1 的所有可尝试方式：%3。请检查用户名、你的公钥是否在服务器的 authorized_keys 中，或密码是否正确。</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>The connection to %1 failed during authentication: %2</source>
        <translation>与 %1 的连接在认证过程中失败：%2</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Authentication with ssh-agent failed: %1</source>
        <translation>通过 ssh-agent 认证失败：%1</translation>
    </message>
    <message>
        <location line="+16"/>
        <location line="+37"/>
        <source>Public key authentication failed: %1</source>
        <translation>公钥认证失败：%1</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+38"/>
        <source>Wrong passphrase.</source>
        <translation>口令错误。</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Keyboard-interactive authentication failed: %1</source>
        <translation>键盘交互认证失败：%1</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+35"/>
        <source>Authentication to %1 was cancelled.</source>
        <translation>到 %1 的认证已取消。</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Could not send the answers: %1</source>
        <translation>无法发送应答：%1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Incorrect user name or password.</source>
        <translation>用户名或密码错误。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Password authentication failed: %1</source>
        <translation>密码认证失败：%1</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/commandjob.cpp" line="+66"/>
        <source>Could not create an SSH channel.</source>
        <translation>无法创建 SSH 通道。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The server refused to open a session channel (it may limit sessions per connection: MaxSessions in sshd_config).</source>
        <translation>服务器拒绝打开会话通道（它可能限制了每个连接的会话数：sshd_config 中的 MaxSessions）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server refused to run the command.</source>
        <translation>服务器拒绝运行该命令。</translation>
    </message>
    <message>
        <location line="+224"/>
        <source>The connection failed while the command ran.</source>
        <translation>命令运行期间连接失败。</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/knownhosts.cpp" line="+135"/>
        <source>Cannot create %1 to record the host key. Check the folder&apos;s permissions.</source>
        <translation>无法创建 %1 来记录主机密钥。请检查该目录的权限。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Could not write the host key to %1, so it would not be recognised next time. Check that the file is writable and the disk not full.</source>
        <translation>无法把主机密钥写入 %1，下次将无法识别它。请检查该文件可写且磁盘未满。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>If you know why it changed (the server was reinstalled or its keys regenerated), confirm the new fingerprint with the server&apos;s administrator, then remove the old key deliberately with:
  ssh-keygen -f &apos;%1&apos; -R &apos;%2&apos;
and connect again.</source>
        <translation>如果你知道它为何改变（服务器重装或重新生成了密钥），请与服务器管理员核对新指纹，然后有意地删除旧密钥：
  ssh-keygen -f &apos;%1&apos; -R &apos;%2&apos;
再重新连接。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>WARNING: the host key of %1 has changed. Someone could be intercepting this connection (a man-in-the-middle attack), or the server&apos;s key was replaced. Connection refused.
The %2 key the server sent has fingerprint %3.
The key we know for it is at %4.
%5</source>
        <translation>警告：%1 的主机密钥已改变。可能有人在拦截此连接（中间人攻击），或服务器的密钥被替换了。连接已拒绝。
服务器发送的 %2 密钥指纹为 %3。
我们已知的密钥位于 %4。
%5</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server %1 sent a %2 key (%3), but the key we know for it is of another type (%4, at %5). An attacker could be offering a key type we never verified, so the connection is refused.
%6</source>
        <translation>服务器 %1 发送了 %2 密钥（%3），但我们已知的密钥是另一种类型（%4，位于 %5）。攻击者可能提供了一种我们从未验证过的密钥类型，因此连接已拒绝。
%6</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>another type</source>
        <translation>另一种类型</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The server %1 sent a %2 key (%3) that is marked revoked at %4. A revoked key must never be trusted again, so the connection is refused. Ask the server&apos;s administrator for its current key.</source>
        <translation>服务器 %1 发送的 %2 密钥（%3）在 %4 中被标记为已吊销。已吊销的密钥绝不能再被信任，因此连接已拒绝。请向服务器管理员索取其当前密钥。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The host key of %1 (%2 %3) is not trusted yet and was not accepted. Compare the fingerprint with the server&apos;s (ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub on the server) before accepting it.</source>
        <translation>%1 的主机密钥（%2 %3）尚未被信任，也未被接受。接受之前，请将指纹与服务器上的指纹比对（在服务器上运行 ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Could not check the host key of %1 against %2. Check that the file is readable and well-formed.</source>
        <translation>无法对照 %2 检查 %1 的主机密钥。请检查该文件可读且格式正确。</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/sessionsetup.cpp" line="+21"/>
        <source>%1 (libssh code %2)</source>
        <translation>%1（libssh 代码 %2）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 did not answer in time. Check that the host is up, the address and port are right, and no firewall drops SSH.</source>
        <translation>%1 没有及时应答。请检查主机已开机、地址和端口正确，并且没有防火墙丢弃 SSH。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot reach %1: %2. Check the address and port, and that sshd runs there.</source>
        <translation>无法连接 %1：%2。请检查地址和端口，以及那里是否运行着 sshd。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 offers no cipher Flashdeck uses: %2. Flashdeck offers AES-GCM, ChaCha20-Poly1305 and AES-CTR, never CBC or 3DES: allow one of them in the host&apos;s sshd_config (Ciphers; OpenSSH&apos;s defaults include them all).</source>
        <translation>%1 没有提供 Flashdeck 使用的加密算法：%2。Flashdeck 提供 AES-GCM、ChaCha20-Poly1305 和 AES-CTR，绝不使用 CBC 或 3DES：请在主机的 sshd_config 中允许其中之一（Ciphers；OpenSSH 的默认值全部包含）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The SSH handshake with %1 failed: %2</source>
        <translation>与 %1 的 SSH 握手失败：%2</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Invalid SSH option %1 for %2.</source>
        <translation>%2 的 SSH 选项 %1 无效。</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/sessionworker.cpp" line="+299"/>
        <source>The connection to %1 was lost while the command ran; it did not finish here. Run it again once the host is back.</source>
        <translation>命令运行期间与 %1 的连接断开；它没有在这里完成。主机恢复后请重新运行。</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/hostconnection.cpp" line="+237"/>
        <location filename="../../backend/ssh/sessionworker.cpp" line="+12"/>
        <location line="+34"/>
        <location line="+5"/>
        <source>Disconnected.</source>
        <translation>已断开。</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/sessionworkercommands.cpp" line="+51"/>
        <source>Not connected to %1.</source>
        <translation>未连接到 %1。</translation>
    </message>
    <message>
        <location line="+17"/>
        <location filename="../../backend/ssh/sessionworkerservice.cpp" line="+54"/>
        <location line="+35"/>
        <source>The connection to %1 was lost.</source>
        <translation>与 %1 的连接已断开。</translation>
    </message>
    <message>
        <location line="+24"/>
        <location line="+6"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/sessionworkertunnels.cpp" line="+43"/>
        <source>The server refused to forward to %1:%2 (AllowTcpForwarding, or nothing listens there).</source>
        <translation>服务器拒绝转发到 %1:%2（AllowTcpForwarding，或那里没有监听）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server refused to run the tunnel command.</source>
        <translation>服务器拒绝运行隧道命令。</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/sessionworkerservice.cpp" line="-15"/>
        <source>The command did not finish within %1 s and was stopped.</source>
        <translation>命令没有在 %1 秒内完成，已被停止。</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>%1 stopped answering: nothing came back for over %2 s although the connection looks open (a network drop or a stalled link). Reconnecting.</source>
        <translation>%1 停止了应答：虽然连接看似仍然打开，但超过 %2 秒没有任何返回（网络中断或链路停滞）。正在重连。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 keepalives unanswered</source>
        <translation>%1 次 keepalive 无应答</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 stopped answering keepalives.</source>
        <translation>%1 停止应答 keepalive。</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/sshtypes.cpp" line="+50"/>
        <source>disconnected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>connecting</source>
        <translation>正在连接</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>verifying host key</source>
        <translation>正在验证主机密钥</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>authenticating</source>
        <translation>正在认证</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>connected (%1)</source>
        <translation>已连接（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>connection lost; reconnecting in %1 s (attempt %2)</source>
        <translation>连接已断开；%1 秒后重连（第 %2 次）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/tunnelserver.cpp" line="+83"/>
        <source>Port %1 of 127.0.0.1 is taken: another program listens there.</source>
        <translation>127.0.0.1 的端口 %1 已被占用：另一个程序正在监听。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot listen on 127.0.0.1: %1</source>
        <translation>无法在 127.0.0.1 上监听：%1</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/tunnelreply.cpp" line="+28"/>
        <source>Closed.</source>
        <translation>已关闭。</translation>
    </message>
    <message>
        <location filename="../../backend/ssh/peeruid.cpp" line="+124"/>
        <source>The connection closed before it could be checked.</source>
        <translation>连接在检查之前就已关闭。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The connection is not a TCP connection.</source>
        <translation>该连接不是 TCP 连接。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The kernel lists no socket for the client.</source>
        <translation>内核中找不到该客户端的套接字。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The kernel&apos;s socket tables cannot be read.</source>
        <translation>无法读取内核的套接字表。</translation>
    </message>
</context>
<context>
    <name>StepDetail</name>
    <message>
        <location filename="../../ui/deploy/stepdetail.cpp" line="+13"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Why:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copy the command (secrets are already redacted)</source>
        <translation>复制命令（机密已隐去）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Runs:</source>
        <translation>运行：</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Expected:</source>
        <translation>预期：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seen:</source>
        <translation>所见：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What to do:</source>
        <translation>处理方法：</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Select a step</source>
        <translation>选择一个步骤</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>(no command: checked from what earlier steps saw)</source>
        <translation>（无命令：根据之前步骤所见检查）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(in progress)</source>
        <translation>（进行中）</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>about </source>
        <translation>约 </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1/s</source>
        <translation>%1/秒</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>under a second left</source>
        <translation>剩余不到一秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 left</source>
        <translation>剩余 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>about %1 left</source>
        <translation>约剩 %1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 layers (%2)</source>
        <translation>%1 层（%2）</translation>
    </message>
</context>
<context>
    <name>Steps</name>
    <message>
        <location filename="../../backend/deploy/deployplan.cpp" line="+27"/>
        <source>Pre-flight</source>
        <translation>预检</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pin</source>
        <extracomment>The deployment phase that fixes the image digest and model revision (固定), not a UI pin.</extracomment>
        <translation>固定</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pull</source>
        <extracomment>The deployment phase that downloads the image (docker pull).</extracomment>
        <translation>拉取</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Launch</source>
        <extracomment>The deployment phase that starts the SGLang server.</extracomment>
        <translation>启动</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Verify</source>
        <extracomment>The deployment phase that sends test requests to the running server.</extracomment>
        <translation>验证</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>SSH connection</source>
        <translation>SSH 连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Everything Flashdeck does on the host goes through this one SSH connection</source>
        <translation>Flashdeck 在主机上的一切操作都通过这一条 SSH 连接</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The profile runs on GPUs of its model, as many as it needs</source>
        <translation>配置需要在其型号的 GPU 上运行，数量满足其所需</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Driver supports the image&apos;s CUDA runtime</source>
        <translation>驱动支持镜像的 CUDA 运行时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The image&apos;s CUDA runtime needs a driver at least as new</source>
        <translation>镜像的 CUDA 运行时需要同样新或更新的驱动</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Docker Engine and GPU runtime</source>
        <translation>Docker Engine 与 GPU 运行时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flashdeck speaks to Docker&apos;s Engine API through docker system dial-stdio, over SSH</source>
        <translation>Flashdeck 通过 SSH 上的 docker system dial-stdio 与 Docker 的 Engine API 通信</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>GPU memory free for the server</source>
        <translation>服务器所需的空闲显存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server claims a fixed share of each GPU&apos;s memory; another job&apos;s would not fit</source>
        <translation>服务器会占用每块 GPU 固定比例的显存；其他作业的显存占用会让它放不下</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Free disk for weights and image</source>
        <translation>权重和镜像所需的空闲磁盘</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The weights and the image are written to the host&apos;s disk</source>
        <translation>权重和镜像会写入主机的磁盘</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Server port free</source>
        <translation>服务器端口空闲</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server listens on the host&apos;s loopback, on ports nothing else holds</source>
        <translation>服务器监听主机的回环地址，所用端口不能被其他程序占用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Host memory</source>
        <translation>主机内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HiCache keeps KV pages in the host&apos;s memory</source>
        <translation>HiCache 把 KV 页保存在主机内存中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model folder (offline weights)</source>
        <translation>模型目录（离线权重）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A folder on the host must hold the pinned revision, file by file</source>
        <translation>主机上的目录必须逐个文件地包含固定的 revision</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Licence acknowledged</source>
        <translation>已确认许可证</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pin the image to its digest</source>
        <translation>将镜像固定到其 digest</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A tag can move; a digest names exactly one image</source>
        <translation>标签可能变动；digest 只对应唯一一个镜像</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pin the model revision</source>
        <translation>固定模型 revision</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A branch can move; a commit names exactly one set of weights</source>
        <translation>分支可能变动；commit 只对应唯一一组权重</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pull the pinned image</source>
        <translation>拉取固定的镜像</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pulled by digest: the host runs the image that was pinned</source>
        <translation>按 digest 拉取：主机运行的正是已固定的镜像</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>GPUs visible inside a container</source>
        <translation>容器内可见 GPU</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Start SGLang</source>
        <translation>启动 SGLang</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The pinned image and revision, listening on the host&apos;s loopback only</source>
        <translation>固定的镜像和 revision，只在主机回环地址上监听</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ready: weights loaded, health OK</source>
        <translation>就绪：权重已加载，健康检查正常</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>qmul4 fast path</source>
        <translation>qmul4 快速路径</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>DSpark draft loaded</source>
        <translation>DSpark 草稿模型已加载</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>KV pool size</source>
        <translation>KV 池大小</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Text generation</source>
        <translation>文本生成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A non-empty choices[0].message.content</source>
        <translation>非空的 choices[0].message.content</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Thinking off</source>
        <translation>关闭思考</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>With thinking_mode disabled: content, no reasoning_content</source>
        <translation>thinking_mode 关闭时：有 content，没有 reasoning_content</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Image input</source>
        <translation>图片输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A 224 × 224 picture as a base64 PNG data URI</source>
        <translation>一张 224 × 224 的图片，作为 base64 PNG data URI</translation>
    </message>
</context>
<context>
    <name>UpgradeDialog</name>
    <message>
        <location filename="../../ui/deploy/upgradedialog.cpp" line="+25"/>
        <source>Upgrade %1</source>
        <translation>升级 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;%1 runs&lt;/b&gt; %2&lt;br&gt;image &lt;tt&gt;%3&lt;/tt&gt;&lt;br&gt;model revision &lt;tt&gt;%4&lt;/tt&gt;</source>
        <translation>&lt;b&gt;%1 运行&lt;/b&gt; %2&lt;br&gt;镜像 &lt;tt&gt;%3&lt;/tt&gt;&lt;br&gt;模型 revision &lt;tt&gt;%4&lt;/tt&gt;</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Resume the %1</source>
        <translation>继续%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An upgrade of %1 (%2) was interrupted in its %3: resume it to finish.</source>
        <translation>%1 的升级（%2）在其%3中被中断：继续以完成它。</translation>
    </message>
    <message numerus="yes">
        <location line="+16"/>
        <source>Upgrade %n hosts</source>
        <translation>
            <numerusform>升级 %n 台主机</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;In turn:&lt;/b&gt; %1&lt;br&gt;Each keeps its profile, GPUs and flags; no host starts after one that rolls back.</source>
        <translation>&lt;b&gt;依次进行：&lt;/b&gt;%1&lt;br&gt;每台保持其配置、GPU 和参数；一旦有主机回滚，之后的主机不再开始。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>a 40-character commit id</source>
        <translation>40 位的 commit id</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New image digest:</source>
        <translation>新的镜像 digest：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New model revision:</source>
        <translation>新的模型 revision：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>How many hosts stop serving at once while they upgrade</source>
        <translation>升级期间同时停止服务的主机数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hosts at a time:</source>
        <translation>每次主机数：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read a pins file…</source>
        <translation>读取固定文件…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The new image is pulled while the server keeps serving. Then the server is stopped, the new one started, and every check and verify step runs again. If any step fails, the current pins run again (their image stays on the host) and are verified again.</source>
        <translation>服务器继续服务的同时拉取新镜像。然后停止服务器、启动新的服务器，并重新运行每个检查和验证步骤。任何步骤失败时，当前的固定版本会重新运行（其镜像保留在主机上）并再次验证。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Upgrade</source>
        <translation>升级</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>A pins file</source>
        <translation>固定文件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Pins files (*.json);;All files (*)</source>
        <translation>固定文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The image digest is sha256: and 64 hex digits, as &apos;flashdeck pins&apos; prints it.</source>
        <translation>镜像 digest 为 sha256: 加 64 位十六进制，与“flashdeck pins”输出的一致。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The model revision is a full commit id: 40 hex digits.</source>
        <translation>模型 revision 是完整的 commit id：40 位十六进制。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>These are the pins the host runs: change the digest or the revision.</source>
        <translation>这些是主机正在运行的固定版本：请修改 digest 或 revision。</translation>
    </message>
</context>
<context>
    <name>UpgradePanel</name>
    <message>
        <location filename="../../ui/fleet/upgradepanel.cpp" line="+31"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The running hosts stop where they are (Upgrade… resumes each); no other host starts</source>
        <translation>正在运行的主机停在当前位置（“升级…”可逐台继续）；其他主机不再开始</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>From</source>
        <translation>从</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>To</source>
        <translation>到</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Now</source>
        <translation>当前</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>An upgrade is running.</source>
        <translation>有升级正在运行。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>This build has no recipe.</source>
        <translation>此版本没有配方。</translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>&lt;b&gt;Upgrade&lt;/b&gt; — %n host(s), %1 at a time; none starts after one that rolls back</source>
        <translation>
            <numerusform>&lt;b&gt;升级&lt;/b&gt; —— %n 台主机，每次 %1 台；一旦有主机回滚，之后的主机不再开始</numerusform>
        </translation>
    </message>
    <message>
        <location line="+27"/>
        <source>connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>upgrading…</source>
        <translation>正在升级…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rolling back (%1 failed)…</source>
        <translation>正在回滚（%1 失败）…</translation>
    </message>
</context>
<context>
    <name>UpgradeSession</name>
    <message>
        <location filename="../../backend/deploy/upgradesession.cpp" line="+85"/>
        <source>Could not record the upgrade in %1: %2. It goes on, but could not be resumed if it were interrupted.</source>
        <translation>无法在 %1 中记录升级：%2。升级继续进行，但如被中断将无法继续。</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../../app/main.cpp" line="+87"/>
        <source>flashdeck: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set).
Run it in a desktop session, under Xvfb (xvfb-run flashdeck), or use a command: flashdeck --help.</source>
        <translation>flashdeck：没有可打开窗口的显示器（未设置 DISPLAY 和 WAYLAND_DISPLAY）。
请在桌面会话中运行、在 Xvfb 下运行（xvfb-run flashdeck），或使用命令：flashdeck --help。</translation>
    </message>
    <message>
        <location line="+277"/>
        <source>flashdeck: unknown language &quot;%1&quot;; --lang takes zh_CN, en or system.</source>
        <translation>flashdeck：未知语言“%1”；--lang 取值为 zh_CN、en 或 system。</translation>
    </message>
    <message>
        <location line="-203"/>
        <source>Flashdeck: deploy, watch and talk to MiniMax-M3.1-Flash on your own GPU servers, over SSH.
Without a command it opens the window.</source>
        <translation>Flashdeck：通过 SSH 在你自己的 GPU 服务器上部署、监视 MiniMax-M3.1-Flash 并与之对话。
不带命令时打开窗口。</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>Print the versions of Flashdeck, Qt and libssh.</source>
        <translation>显示 Flashdeck、Qt 和 libssh 的版本。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep settings, inventory, data and logs under DIR.</source>
        <translation>把设置、主机清单、数据和日志放在 DIR 下。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Also write the log to standard error.</source>
        <translation>同时将日志写到标准错误。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Speak LANG: zh_CN (简体中文), en, or system (the default: the system locale, unless Settings → Language chose).</source>
        <translation>使用 LANG 语言：zh_CN（简体中文）、en 或 system（默认：系统区域设置，除非在“设置 → 语言”中已选择）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Open the window with simulated GPU hosts on loopback (started now, stopped on exit).</source>
        <translation>打开窗口，并在回环地址上运行模拟 GPU 主机（现在启动，退出时停止）。</translation>
    </message>
    <message>
        <location line="+226"/>
        <source>
Run &apos;flashdeck --help&apos; for usage.</source>
        <translation>
运行“flashdeck --help”查看用法。</translation>
    </message>
    <message>
        <location line="-136"/>
        <source>Unknown command &quot;%1&quot;. Run &apos;flashdeck --help&apos; for usage.</source>
        <translation>未知命令“%1”。运行“flashdeck --help”查看用法。</translation>
    </message>
    <message>
        <location line="-74"/>
        <source>hosts add|list|remove|check, deploy HOST, undeploy HOST, runbook HOST, pins [lock] HOST, upgrade HOST…, prune HOST, recipes list|show, status [HOST…], prometheus rules|targets, logs HOST|--file PATH, license [HOST], chat HOST --prompt TEXT, tunnel HOST [--local-port N], loadtest HOST, expose HOST --allow CIDR, unexpose HOST, demo start|status|stop. Without a command the window opens.</source>
        <translation>hosts add|list|remove|check、deploy HOST、undeploy HOST、runbook HOST、pins [lock] HOST、upgrade HOST…、prune HOST、recipes list|show、status [HOST…]、prometheus rules|targets、logs HOST|--file PATH、license [HOST]、chat HOST --prompt TEXT、tunnel HOST [--local-port N]、loadtest HOST、expose HOST --allow CIDR、unexpose HOST、demo start|status|stop。不带命令时打开窗口。</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>Flashdeck is already running for this configuration; its window was brought to the front.</source>
        <translation>Flashdeck 已在使用此配置运行；已将其窗口调到最前。</translation>
    </message>
    <message>
        <location line="+25"/>
        <location line="+25"/>
        <source>flashdeck: the demo did not start: </source>
        <translation>flashdeck：演示没有启动：</translation>
    </message>
</context>
</TS>
