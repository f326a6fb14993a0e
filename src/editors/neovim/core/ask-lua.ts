import { ASK_VIEWS_LUA } from "./ask-views-lua.ts";
import { STATE_FUNCTIONS } from "./lua.ts";

/**
 * The Lua of asks from Neovim (`:Pi`, `:PiAdd`, `:PiStop`, `:PiReply`), verbatim (docs/security.md quotes it),
 * as core/lua.ts: fixed text, every dynamic value an argument (`...`), every callback wrapped in `pcall`.
 *
 * One command set per Neovim however many pis read it: the module `package.loaded["pi_ide_asks"]` keeps a
 * registry of the live pis (their channels), defines the commands with the first and removes them (its autocmds,
 * its buffers, its completion function) with the last. A user's own command of a name is never replaced: pi's
 * takes the fallback name (`:PiAsk`). Nothing blocks: no `input()`, no `vim.ui.*`; a prompt is a small buffer, a
 * choice of pi a numbered list, pi's words an `nvim_echo` kept out of the history and cut to `v:echospace`.
 */

/** The names pi defines, and the fallback of each when the user has a command of that name. */
export const ASK_COMMANDS = [
	{ name: "Pi", fallback: "PiAsk" },
	{ name: "PiAdd", fallback: "PiAskAdd" },
	{ name: "PiStop", fallback: "PiAskStop" },
	{ name: "PiReply", fallback: "PiAskReply" },
] as const;

/** The notification Neovim sends pi for each ask, add, stop and reply: `(method, params)`. */
export const ASK_NOTIFICATION = "pi_ide_ask";

/** The module's shared parts: registry, sending, pi's words. */
const ASK_MODULE = `
M = { protocol = 1, pis = {}, defined = {}, taken = {}, mtimes = {} }
local SAY_HL = { error = "ErrorMsg", working = "MoreMsg", info = "Normal" }
local GONE_CHECK_MS = 300

-- One line in the echo area, never in :messages, never wider than it: no "Press ENTER".
function M.say(text, level)
  local room = math.max(1, vim.v.echospace - 1)
  text = cut(tostring(text):gsub("[%c]", " "), room * 4)
  while fn.strdisplaywidth(text) > room do text = fn.strcharpart(text, 0, fn.strchars(text) - 1) end
  api.nvim_echo({ { text, SAY_HL[level] or "Normal" } }, false, {})
end

local function live(channel)
  local ok, info = pcall(api.nvim_get_chan_info, channel)
  return ok and type(info) == "table" and info.id ~= nil
end

-- The pis still there, oldest channel first; what a dead one left goes.
function M.live_pis()
  local out = {}
  for channel in pairs(M.pis) do
    if live(channel) then out[#out + 1] = channel else M.drop(channel) end
  end
  table.sort(out)
  return out
end

-- A pi leaves (gone, or its asks removed): its question, if one shows, goes with it (core/question-lua.ts).
function M.drop(channel)
  M.pis[channel] = nil
  if M.chosen == channel then M.chosen = nil end
  local Q = package.loaded["pi_ide_questions"]
  if type(Q) == "table" and Q.protocol == 1 then pcall(Q.drop, channel) end
  if next(M.pis) == nil then M.teardown() end
end

-- The pi an ask goes to: the one connected to this Neovim, the only one, the one chosen, else the user picks.
function M.target(send)
  local list = M.live_pis()
  if #list == 0 then return M.say("pi: gone", "error") end
  for _, channel in ipairs(list) do
    if M.pis[channel].connected then return send(channel) end
  end
  if #list == 1 then return send(list[1]) end
  if M.chosen and M.pis[M.chosen] then return send(M.chosen) end
  M.choose(list, function(channel)
    M.chosen = channel
    send(channel)
  end)
end

local function gone(channel)
  M.drop(channel)
  M.say("pi: gone", "error")
end

-- A notification to pi. pi gone (killed, not yet noticed): said, and it leaves the registry; a socket that
-- took the write but was closed meanwhile shows a moment later (nothing polls: this looks once).
function M.send(channel, method, params)
  if not pcall(vim.rpcnotify, channel, "${ASK_NOTIFICATION}", method, params) then
    gone(channel)
    return false
  end
  vim.defer_fn(function()
    if M.pis[channel] and not live(channel) then pcall(gone, channel) end
  end, GONE_CHECK_MS)
  return true
end

function M.to_pi(method, params)
  M.target(function(channel) M.send(channel, method, params) end)
end

-- A file's identity on disk: a buffer counts as changed when it differs from the one last read or written.
local uv = vim.uv or vim.loop
local function disk_key(name)
  local stat = uv.fs_stat(name)
  return stat and (stat.mtime.sec .. "." .. stat.mtime.nsec .. "." .. stat.size) or "gone"
end

function M.remember(buf)
  if not api.nvim_buf_is_valid(buf) or vim.bo[buf].buftype ~= "" then return end
  local name = api.nvim_buf_get_name(buf)
  if name ~= "" then M.mtimes[buf] = disk_key(name) end
end

-- A run ended: an unmodified buffer with 'autoread' follows the disk (Neovim's own check, silent: no W11, no
-- W12); one with unsaved changes or 'autoread' off is never touched, and counted when its file changed.
function M.follow_disk()
  local kept = 0
  for _, buf in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(buf) and vim.bo[buf].buftype == "" and api.nvim_buf_get_name(buf) ~= "" then
      local now = disk_key(api.nvim_buf_get_name(buf))
      if not vim.bo[buf].modified and fn.getbufvar(buf, "&autoread") == 1 then
        pcall(vim.cmd, "silent! checktime " .. buf)
      elseif M.mtimes[buf] ~= nil and M.mtimes[buf] ~= now then
        kept = kept + 1
      end
      M.mtimes[buf] = now
    end
  end
  return kept
end

function M.teardown()
  for name in pairs(M.defined) do pcall(api.nvim_del_user_command, name) end
  M.defined = {}
  if M.group then pcall(api.nvim_del_augroup_by_id, M.group) end
  for _, buf in ipairs({ M.prompt_buf, M.choose_buf, M.reply_buf }) do
    if buf and api.nvim_buf_is_valid(buf) then pcall(api.nvim_buf_delete, buf, { force = true }) end
  end
  _G.PiIdeAsksComplete = nil
  package.loaded["pi_ide_asks"] = nil
end
`;

/**
 * Args: channel, `{ pid, project, connected }`, the names `{ { name, fallback }, ... }`. Registers pi's channel
 * (again: its `connected` may have changed), defines the commands once per Neovim. Returns the names defined and
 * those taken by the user's own commands, whether pi-bridge.nvim is loaded there (its plugin then shows pi's
 * questions of the turns it asked), or `{ unsupported = why }`.
 */
export const ASK_START_LUA = `${STATE_FUNCTIONS}
local channel, me, names = ...
if fn.has("nvim-0.7") == 0 then return { unsupported = "Neovim 0.7 or later takes asks" } end
local M = package.loaded["pi_ide_asks"]
if type(M) ~= "table" or M.protocol ~= 1 then
${ASK_MODULE}
${ASK_VIEWS_LUA}
  package.loaded["pi_ide_asks"] = M
  M.group = api.nvim_create_augroup("pi_ide_asks", { clear = true })
  api.nvim_create_autocmd({ "BufReadPost", "BufWritePost", "FileChangedShellPost" }, {
    group = M.group,
    callback = function(event) pcall(M.remember, event.buf) end,
  })
  for _, buf in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(buf) then M.remember(buf) end
  end
  local users = api.nvim_get_commands({ builtin = false })
  for _, entry in ipairs(names) do
    local name = users[entry.name] and entry.fallback or entry.name
    if users[entry.name] then M.taken[#M.taken + 1] = entry.name end
    if not users[name] then
      api.nvim_create_user_command(name, function(opts) pcall(M.commands[entry.name], opts) end, M.options[entry.name])
      M.defined[name] = entry.name
    end
  end
end
local known = M.pis[channel] ~= nil
M.pis[channel] = { pid = me.pid, project = me.project, connected = me.connected == true }
-- Fired when pi leaves (LEAVE_LUA) or its pushes failed (it is gone): it leaves the registry at once.
if not known then
  api.nvim_create_autocmd("User", {
    group = M.group,
    pattern = "pi_ide_gone_" .. channel,
    callback = function() pcall(M.drop, channel) end,
  })
end
local defined = {}
for name in pairs(M.defined) do defined[#defined + 1] = name end
table.sort(defined)
return { defined = defined, taken = M.taken, piBridge = package.loaded["pi-bridge"] ~= nil }
`;

/** Args: channel. pi leaves the registry; with the last pi the commands and everything of the module go. */
export const ASK_STOP_LUA = `local channel = ...
local M = package.loaded["pi_ide_asks"]
if type(M) == "table" and M.protocol == 1 then M.drop(channel) end
return true`;

/** Args: text, level. pi's words in the echo area (`pi: working (…)`, `pi: done`, `pi: not sent: …`). */
export const ASK_SAY_LUA = `local text, level = ...
local M = package.loaded["pi_ide_asks"]
if type(M) == "table" and M.protocol == 1 then M.say(text, level) end
return true`;

/** Args: channel, text, streaming. The reply's view, only while open: "shown", else "closed". */
export const ASK_REPLY_LUA = `local channel, text, streaming = ...
local M = package.loaded["pi_ide_asks"]
if type(M) ~= "table" or M.protocol ~= 1 then return "closed" end
return M.show_reply(channel, text, streaming)`;

/** No args. A run ended: the buffers follow the disk; the count of changed files left as they were. */
export const ASK_FOLLOW_DISK_LUA = `local M = package.loaded["pi_ide_asks"]
if type(M) ~= "table" or M.protocol ~= 1 then return 0 end
return M.follow_disk()`;
