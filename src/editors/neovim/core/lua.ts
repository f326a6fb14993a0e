import {
	LUA_SELECTION_BYTES,
	MAX_ARGS,
	MAX_DIAGNOSTIC_MESSAGE_BYTES,
	MAX_DIAGNOSTIC_SOURCE_BYTES,
	MAX_DIAGNOSTICS,
	MAX_LANGUAGE_BYTES,
	MAX_LISTED_FILES,
	MAX_MODE_BYTES,
	MAX_PATH_BYTES,
} from "./snapshot-caps.ts";

/**
 * Every piece of Lua pi sends into a Neovim, verbatim (docs/security.md quotes it). The text never changes:
 * each dynamic value (a channel, a path, a group name) travels as an argument (`...`), so nothing pi reads
 * from the outside is ever run as code. Every chunk is harmless if it runs late (a request that timed out
 * while Neovim showed a prompt still runs once the prompt is dismissed).
 */

/** A text cut to a byte limit between UTF-8 characters: the state's Lua and the ghost text's share it. */
export const UTF8_CUT_LUA = `local function is_continuation(text, index)
  local byte = text:byte(index)
  return byte ~= nil and byte >= 0x80 and byte < 0xC0
end

-- At most limit bytes, never inside a UTF-8 character.
local function cut(text, limit)
  if #text <= limit then return text end
  local stop = limit
  while stop > 0 and is_continuation(text, stop + 1) do stop = stop - 1 end
  return text:sub(1, stop)
end`;

/**
 * What the state of the editor is, as one table: the functions every chunk below starts with. Every field is
 * capped here (core/snapshot-caps.ts, the numbers written into the text once), so a real Neovim's answer always
 * passes pi's schema whatever the user selected or opened.
 */
export const STATE_FUNCTIONS = String.raw`
local api, fn = vim.api, vim.fn
local MAX_TEXT_BYTES, MAX_PATH_BYTES, MAX_ARGS, MAX_LISTED = ${LUA_SELECTION_BYTES}, ${MAX_PATH_BYTES}, ${MAX_ARGS}, ${MAX_LISTED_FILES}
local MAX_NAME_BYTES, MAX_MODE_BYTES = ${MAX_LANGUAGE_BYTES}, ${MAX_MODE_BYTES}
local MAX_DIAGNOSTICS, MAX_MESSAGE_BYTES, MAX_SOURCE_BYTES = ${MAX_DIAGNOSTICS}, ${MAX_DIAGNOSTIC_MESSAGE_BYTES}, ${MAX_DIAGNOSTIC_SOURCE_BYTES}
local SEVERITY = { "error", "warning", "info", "hint" }

local function is_normal(win)
  if not win or not api.nvim_win_is_valid(win) then return false end
  if api.nvim_win_get_config(win).relative ~= "" then return false end
  return vim.bo[api.nvim_win_get_buf(win)].buftype == ""
end

-- The window the user means: the current one, else the tab's last used normal window (pi in :terminal).
local function active_window(last_win)
  local current = api.nvim_get_current_win()
  if is_normal(current) then return current end
  local tab = api.nvim_get_current_tabpage()
  if is_normal(last_win) and api.nvim_win_get_tabpage(last_win) == tab then return last_win end
  local previous = fn.win_getid(fn.winnr("#"))
  if previous ~= 0 and is_normal(previous) then return previous end
  for _, win in ipairs(api.nvim_tabpage_list_wins(tab)) do
    if is_normal(win) then return win end
  end
  return nil
end

${UTF8_CUT_LUA}

-- A name too long to open names nothing: left out, not cut into another name.
local function path_or_nil(name)
  if name == "" or #name > MAX_PATH_BYTES then return nil end
  return name
end

-- Lines first..last joined, read 500 at a time, no further than one line past the cap.
local function lines_text(buf, first, last)
  local parts, bytes, line = {}, 0, first
  while line <= last and bytes <= MAX_TEXT_BYTES do
    local chunk = api.nvim_buf_get_lines(buf, line - 1, math.min(last, line + 499), false)
    for _, text in ipairs(chunk) do
      parts[#parts + 1] = text
      bytes = bytes + #text + 1
      if bytes > MAX_TEXT_BYTES then break end
    end
    line = line + 500
  end
  return table.concat(parts, "\n")
end

-- 1-based inclusive byte columns; a multi-line or linewise selection is whole lines, as the protocol says.
-- The text is cut at MAX_TEXT_BYTES inside a line, whatever the mode: pi's own cut then notes what is left out.
local function region(buf, kind, a, b)
  if a[1] > b[1] or (a[1] == b[1] and a[2] > b[2]) then a, b = b, a end
  local first = api.nvim_buf_get_lines(buf, a[1] - 1, a[1], false)[1] or ""
  local last = a[1] == b[1] and first or (api.nvim_buf_get_lines(buf, b[1] - 1, b[1], false)[1] or "")
  local start_col, end_col = math.max(1, math.min(a[2], #first)), math.max(1, math.min(b[2], #last))
  if kind == "V" then start_col, end_col = 1, math.max(1, #last) end
  local text
  if kind == "v" and a[1] == b[1] then
    while is_continuation(first, end_col + 1) do end_col = end_col + 1 end
    text = first:sub(start_col, math.min(end_col, start_col + MAX_TEXT_BYTES))
  else
    text = lines_text(buf, a[1], b[1])
  end
  return { line = a[1], column = start_col }, { line = b[1], column = end_col }, cut(text, MAX_TEXT_BYTES), kind == "V"
end

local function selection(win, buf, mode)
  local kind = mode:sub(1, 1)
  if api.nvim_get_current_win() == win and (kind == "v" or kind == "V" or kind == "\22") then
    local a, b = fn.getpos("v"), fn.getpos(".")
    local s, e, text, linewise = region(buf, kind, { a[2], a[3] }, { b[2], b[3] })
    return { start = s, ["end"] = e, text = text, visual = true, linewise = linewise }
  end
  local a, b = api.nvim_buf_get_mark(buf, "<"), api.nvim_buf_get_mark(buf, ">")
  if a[1] == 0 or b[1] == 0 then return nil end
  local last = fn.visualmode()
  local s, e, text, linewise = region(buf, last == "" and "v" or last, { a[1], a[2] + 1 }, { b[1], b[2] + 1 })
  return { start = s, ["end"] = e, text = text, visual = false, linewise = linewise }
end

local function diagnostics(buf)
  local ok, items = pcall(vim.diagnostic.get, buf)
  if not ok then return {} end
  table.sort(items, function(x, y)
    if x.severity ~= y.severity then return x.severity < y.severity end
    return x.lnum < y.lnum
  end)
  local out = {}
  for index = 1, math.min(#items, MAX_DIAGNOSTICS) do
    local item = items[index]
    out[index] = {
      line = item.lnum + 1,
      column = item.col + 1,
      severity = SEVERITY[item.severity] or "hint",
      message = cut(tostring(item.message), MAX_MESSAGE_BYTES),
      source = type(item.source) == "string" and cut(item.source, MAX_SOURCE_BYTES) or nil,
    }
  end
  return out
end

local function unsaved()
  local files = {}
  for _, buf in ipairs(api.nvim_list_bufs()) do
    if #files >= MAX_LISTED then break end
    if api.nvim_buf_is_loaded(buf) and vim.bo[buf].modified and vim.bo[buf].buftype == "" then
      local name = path_or_nil(api.nvim_buf_get_name(buf))
      if name then files[#files + 1] = name end
    end
  end
  return files
end

local function state(last_win)
  local mode = api.nvim_get_mode().mode
  local win = active_window(last_win)
  local argv = {}
  for index = 1, math.min(#vim.v.argv, MAX_ARGS) do argv[index] = cut(vim.v.argv[index], MAX_PATH_BYTES) end
  local out = { cwd = cut(fn.getcwd(), MAX_PATH_BYTES), argv = argv, ui = #api.nvim_list_uis() > 0,
    mode = cut(mode, MAX_MODE_BYTES), unsaved = unsaved() }
  if not win then return out end
  local buf = api.nvim_win_get_buf(win)
  local cursor = api.nvim_win_get_cursor(win)
  out.cwd = cut(fn.getcwd(win), MAX_PATH_BYTES)
  out.buffer = {
    file = path_or_nil(api.nvim_buf_get_name(buf)),
    language = cut(vim.bo[buf].filetype, MAX_NAME_BYTES),
    cursor = { line = cursor[1], column = cursor[2] + 1 },
    modified = vim.bo[buf].modified,
    lines_total = api.nvim_buf_line_count(buf),
    autoread = fn.getbufvar(buf, "&autoread") == 1,
    diagnostics = diagnostics(buf),
  }
  out.selection = selection(win, buf, mode)
  return out
end
`;

/**
 * Args: a token pi just set as its channel's client attribute (`nvim_set_client_info`). Finds pi's own channel
 * id, which the pushes are sent to, without `nvim_get_api_info`'s whole API description (~100 KB to decode).
 */
export const CHANNEL_LUA = `local token = ...
for _, chan in ipairs(vim.api.nvim_list_chans()) do
  if chan.client and chan.client.attributes and chan.client.attributes.token == token then return chan.id end
end
return 0`;

/** One request: what the editor shows now. */
export const STATE_LUA = `${STATE_FUNCTIONS}\nreturn state(nil)`;

/** One request: the files held with unsaved changes, for the guard at a tool call. */
export const UNSAVED_LUA = `${STATE_FUNCTIONS}\nreturn unsaved()`;

/**
 * Args: channel, group name, throttle ms. Creates the group `pi_ide_<channel>` whose autocmds push the state
 * to pi's channel, at most once per throttle window (leading and trailing edge, one timer at a time), the first
 * push at once. A failed
 * push (pi is gone) deletes the group and fires `User pi_ide_gone_<channel>` (the rest of pi's there goes with
 * it); pi deletes the group on `/ide off` and as it leaves (LEAVE_LUA). Every callback is wrapped so
 * that nothing of pi can raise an error in front of the user.
 */
export const PUSH_LUA = `${STATE_FUNCTIONS}
local channel, group_name, throttle_ms = ...
local uv = vim.uv or vim.loop
local group = api.nvim_create_augroup(group_name, { clear = true })
local last_win = is_normal(api.nvim_get_current_win()) and api.nvim_get_current_win() or nil
local left_visual, cooling, pending = false, false, false

local function alive()
  return pcall(api.nvim_get_autocmds, { group = group })
end

local function push()
  local ok, snapshot = pcall(state, last_win)
  local payload = ok and snapshot or { error = tostring(snapshot) }
  payload.left_visual = left_visual
  left_visual = false
  if not pcall(vim.rpcnotify, channel, "pi_ide_state", payload) then
    pcall(api.nvim_del_augroup_by_id, group)
    -- The rest of pi's goes too: its ghost text and its place in the asks listen (core/suggest-lua.ts, ask-lua.ts).
    pcall(api.nvim_exec_autocmds, "User", { pattern = "pi_ide_gone_" .. channel, modeline = false })
  end
end

local function cool_down()
  local timer = uv.new_timer()
  timer:start(throttle_ms, 0, function()
    timer:close()
    vim.schedule(function()
      if pending and alive() then
        pending = false
        push()
        cool_down()
      else
        cooling, pending = false, false
      end
    end)
  end)
end

local function on_event(event)
  if event.event == "ModeChanged" then
    local old, new = vim.v.event.old_mode or "", vim.v.event.new_mode or ""
    if old:match("^[vV\\22]") and not new:match("^[vV\\22]") then left_visual = true end
  elseif event.event == "WinEnter" or event.event == "BufEnter" then
    local win = api.nvim_get_current_win()
    if is_normal(win) then last_win = win end
  end
  if cooling then
    pending = true
    return
  end
  cooling = true
  push()
  cool_down()
end

api.nvim_create_autocmd({ "CursorMoved", "CursorMovedI", "ModeChanged", "BufEnter", "WinEnter", "TabEnter",
  "TextChanged", "TextChangedI", "BufWritePost", "DirChanged", "DiagnosticChanged", "BufModifiedSet" }, {
  group = group,
  callback = function(event) pcall(on_event, event) end,
})
-- What changed between pi's first read and this group's creation reaches pi now.
pcall(on_event, { event = "attach" })
return group
`;

/** Args: group name. Deletes pi's group (`/ide off`): Neovim pushes nothing more. */
export const STOP_PUSHES_LUA = `pcall(vim.api.nvim_del_augroup_by_name, ...)`;

/**
 * Args: channel, group name. pi leaves this Neovim (its session ends) in one request, as a failed push does: the
 * pushes' group goes and `User pi_ide_gone_<channel>` takes the rest of pi's (its ghost text, its place in the
 * asks, its question). Missed, the group stays only until its next push fails, which does the same.
 */
export const LEAVE_LUA = `local channel, group_name = ...
pcall(vim.api.nvim_del_augroup_by_name, group_name)
pcall(vim.api.nvim_exec_autocmds, "User", { pattern = "pi_ide_gone_" .. channel, modeline = false })
return true`;

/**
 * Args: a real path. Reloads that file's buffer after the model wrote it, only when loaded, unmodified and
 * with 'autoread' on: silent, so Neovim shows no message. Says what it did.
 */
export const RELOAD_LUA = `
local path = ...
for _, buf in ipairs(vim.api.nvim_list_bufs()) do
  local name = vim.api.nvim_buf_get_name(buf)
  if vim.api.nvim_buf_is_loaded(buf) and name ~= "" and (name == path or (vim.uv or vim.loop).fs_realpath(name) == path) then
    if vim.bo[buf].modified then return "modified" end
    if vim.fn.getbufvar(buf, "&autoread") ~= 1 then return "autoread-off" end
    vim.cmd("silent checktime " .. buf)
    return "reloaded"
  end
end
return "not-loaded"
`;
