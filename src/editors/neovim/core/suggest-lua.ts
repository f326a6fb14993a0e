import { SUGGEST_FUNCTIONS } from "./suggest-context-lua.ts";

/**
 * The Lua of Neovim's ghost text (inline suggestions), verbatim (docs/security.md quotes it), as core/lua.ts:
 * fixed text, every dynamic value (the channel, the keys, a request's id, the model's texts) an argument (`...`),
 * never code; every callback wrapped in `pcall`. Sent only while suggestions are on (`true` or a model, or
 * `/ide suggestions on`) and pi takes pushes from that Neovim; the default "asked-only" sends none of it.
 */

/** The namespace of the ghost text's extmarks: one, as Neovim has one owner of its suggestions at a time. */
export const SUGGEST_NAMESPACE = "pi_ide_suggest";
/** `vim.g.pi_ide_suggest_owner`: the channel of the pi that owns this Neovim's suggestions. */
export const SUGGEST_OWNER_VARIABLE = "pi_ide_suggest_owner";

/**
 * Args: channel, options `{ debounce_ms, keys = { accept, next, previous, dismiss, ask } }` (a key left out: none).
 * Claims this Neovim's suggestions for pi's channel (`vim.g.pi_ide_suggest_owner`; a live pi's claim stands and
 * is answered `{ owner = <its channel> }`), then: typing that pauses in Insert mode (a timer restarted by
 * `TextChangedI`: no other work per key) asks pi with `rpcnotify`, never `rpcrequest`; the ask key asks at once.
 * The module's functions live in `package.loaded["pi_ide_suggest.<channel>"]` for the show and stop chunks.
 * Its group `pi_ide_suggest_<channel>`, its mappings (marked by their `desc`), its extmarks, the claim and the
 * module go together: on pi's stop, when a notification fails (pi is gone), and on the `User` event
 * `pi_ide_gone_<channel>`, fired as pi leaves and by the pushes when theirs fails (Neovim's next key).
 */
export const SUGGEST_START_LUA = String.raw`${SUGGEST_FUNCTIONS}
local channel, options = ...
if fn.has("nvim-0.7") == 0 then return { unsupported = "Neovim 0.7 or later draws pi's suggestions" } end
local uv = vim.uv or vim.loop
local DESC = "pi-ide-context suggestion: "
local INLINE = fn.has("nvim-0.10") == 1
local name = "pi_ide_suggest." .. channel
local ns = api.nvim_create_namespace("${SUGGEST_NAMESPACE}")

-- One owner per Neovim: a live pi's claim stands; what a dead one left goes.
local owner = vim.g.${SUGGEST_OWNER_VARIABLE}
if type(owner) == "number" and owner ~= channel then
  local ok, info = pcall(api.nvim_get_chan_info, owner)
  if ok and info.id ~= nil then return { owner = owner } end
  local dead = package.loaded["pi_ide_suggest." .. owner]
  if type(dead) == "table" then pcall(dead.stop) end
end
local earlier = package.loaded[name]
if type(earlier) == "table" then pcall(earlier.stop) end
vim.g.${SUGGEST_OWNER_VARIABLE} = channel

local M, stopped = {}, false
local keys = type(options.keys) == "table" and options.keys or {}
local debounce_ms = tonumber(options.debounce_ms) or 300
local timer = uv.new_timer()
local group = api.nvim_create_augroup("pi_ide_suggest_" .. channel, { clear = true })
local next_id, pending, shown, ask_taken = 0, nil, nil, false

local function ours(map)
  return type(map.desc) == "string" and map.desc:sub(1, #DESC) == DESC
end

-- A mapping of the user's for that key in Insert mode (global, or the current buffer's): then it is not offered.
local function users(lhs)
  local map = fn.maparg(lhs, "i", false, true)
  return map.lhs ~= nil and not ours(map)
end

local function unoffered()
  local out = {}
  for _, action in ipairs({ "accept", "next", "previous", "dismiss" }) do
    if type(keys[action]) == "string" and users(keys[action]) then out[#out + 1] = action end
  end
  if ask_taken then out[#out + 1] = "ask" end
  return out
end

-- Before 0.10: the first line overlaid past the line's end (nothing is asked while the rest of the line is not
-- empty), further lines as virt_lines. 0.10+: inline at the cursor. [i/n] when there are several.
local function draw()
  local s = shown
  api.nvim_buf_clear_namespace(s.buf, ns, 0, -1)
  local lines = vim.split(s.texts[s.index], "\n", { plain = true })
  local tabstop = vim.bo[s.buf].tabstop
  local line = api.nvim_buf_get_lines(s.buf, s.row, s.row + 1, false)[1] or ""
  local first = { { expand(lines[1], fn.strdisplaywidth(line:sub(1, s.col)), tabstop), "Comment" } }
  local marker = #s.texts > 1 and { string.format("  [%d/%d]", s.index, #s.texts), "Comment" } or nil
  if marker and not INLINE then first[2] = marker end
  local below = {}
  for index = 2, #lines do below[#below + 1] = { { expand(lines[index], 0, tabstop), "Comment" } } end
  api.nvim_buf_set_extmark(s.buf, ns, s.row, s.col, {
    virt_text = first,
    virt_text_pos = INLINE and "inline" or "overlay",
    virt_lines = #below > 0 and below or nil,
    hl_mode = "combine",
  })
  if marker and INLINE then
    api.nvim_buf_set_extmark(s.buf, ns, s.row, 0, { virt_text = { marker }, virt_text_pos = "eol" })
  end
end

local function notify(method, payload)
  if stopped then return end
  if not pcall(vim.rpcnotify, channel, method, payload) then M.stop() end
end

-- The ghost text, its buffer's mappings of pi's and its autocmds go.
local function clear_shown()
  local s = shown
  if not s then return end
  shown = nil
  pcall(api.nvim_buf_clear_namespace, s.buf, ns, 0, -1)
  for _, id in ipairs(s.autocmds or {}) do pcall(api.nvim_del_autocmd, id) end
  if api.nvim_buf_is_valid(s.buf) then
    for _, map in ipairs(api.nvim_buf_get_keymap(s.buf, "i")) do
      if ours(map) then pcall(api.nvim_buf_del_keymap, s.buf, "i", map.lhs) end
    end
  end
end

local function cancel_pending()
  local p = pending
  pending = nil
  if p then notify("pi_ide_suggest_cancel", { id = p.id }) end
end

local function dismiss()
  timer:stop()
  clear_shown()
  cancel_pending()
end

local function ask(by_hand)
  timer:stop()
  if stopped or api.nvim_get_mode().mode ~= "i" or fn.pumvisible() == 1 then return end
  local buf, win = api.nvim_get_current_buf(), api.nvim_get_current_win()
  local file = api.nvim_buf_get_name(buf)
  if vim.bo[buf].buftype ~= "" or not vim.bo[buf].modifiable or file == "" or #file > MAX_PATH_BYTES then return end
  local cursor = api.nvim_win_get_cursor(win)
  local row, col = cursor[1] - 1, cursor[2]
  local line = api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or ""
  if not INLINE and col < #line then return end
  clear_shown()
  cancel_pending()
  local language = vim.bo[buf].filetype
  local before, after = context(buf, row, col, line)
  next_id = next_id + 1
  pending = { id = next_id, buf = buf, tick = api.nvim_buf_get_changedtick(buf), row = row, col = col }
  notify("pi_ide_suggest", {
    id = pending.id,
    buf = buf,
    tick = pending.tick,
    cursor = { line = row + 1, column = col + 1 },
    by_hand = by_hand,
    unoffered = unoffered(),
    request = {
      filePath = file,
      language = (language ~= "" and #language <= MAX_LANGUAGE_BYTES) and language or nil,
      cursorBefore = before,
      cursorAfter = after,
      outline = outline(buf),
      suggestionCount = COUNT,
    },
  })
end

-- After a key while ghost text shows: true while it still fits (the cursor where it was, or the suggestion's next
-- characters typed: used up and drawn again, nothing asked); false: it goes.
local function follow()
  local s = shown
  if not s or api.nvim_get_current_buf() ~= s.buf then return false end
  local cursor = api.nvim_win_get_cursor(0)
  local row, col = cursor[1] - 1, cursor[2]
  local tick = api.nvim_buf_get_changedtick(s.buf)
  if tick == s.tick then return row == s.row and col == s.col end
  local typed = s.typed
  s.typed = nil
  if type(typed) ~= "string" or typed == "" or row ~= s.row or col ~= s.col + #typed then return false end
  local line = api.nvim_buf_get_lines(s.buf, row, row + 1, false)[1] or ""
  if line:sub(s.col + 1, col) ~= typed or (not INLINE and #line > col) then return false end
  local current, texts, index = s.texts[s.index], {}, 1
  for _, text in ipairs(s.texts) do
    if #text > #typed and text:sub(1, #typed) == typed then
      texts[#texts + 1] = text:sub(#typed + 1)
      if text == current then index = #texts end
    end
  end
  if #texts == 0 then return false end
  s.texts, s.index, s.col, s.tick = texts, index, col, tick
  draw()
  return true
end

local function cycle(step)
  local s = shown
  if not s then return end
  s.index = (s.index - 1 + step) % #s.texts + 1
  draw()
end

-- One undo step: the undo sequence broken before (Vim's ":let &undolevels = &undolevels") and after (<C-g>u).
local function accept()
  local s = shown
  if not s then return end
  clear_shown()
  local cursor = api.nvim_win_get_cursor(0)
  if api.nvim_get_current_buf() ~= s.buf or cursor[1] - 1 ~= s.row or cursor[2] ~= s.col then return end
  local lines = vim.split(s.texts[s.index], "\n", { plain = true })
  vim.cmd("let &undolevels = &undolevels")
  api.nvim_buf_set_text(s.buf, s.row, s.col, s.row, s.col, lines)
  api.nvim_win_set_cursor(0, { s.row + #lines, #lines == 1 and s.col + #lines[1] or #lines[#lines] })
  api.nvim_feedkeys(api.nvim_replace_termcodes("<C-g>u", true, false, true), "in", false)
end

local ACTIONS = {
  accept = accept,
  next = function() cycle(1) end,
  previous = function() cycle(-1) end,
  dismiss = dismiss,
}

-- The keys, buffer-local while the ghost text shows, each only where the user has no mapping of that key.
local function offer(s)
  for action, run in pairs(ACTIONS) do
    local lhs = keys[action]
    if type(lhs) == "string" and not users(lhs) then
      api.nvim_buf_set_keymap(s.buf, "i", lhs, "", { noremap = true, nowait = true, silent = true,
        desc = DESC .. action, callback = function() pcall(run) end })
    end
  end
  s.autocmds = {
    api.nvim_create_autocmd("InsertCharPre", { group = group, buffer = s.buf,
      callback = function() s.typed = (s.typed or "") .. vim.v.char end }),
    api.nvim_create_autocmd("CursorMovedI", { group = group, buffer = s.buf, callback = function()
      local ok, fits = pcall(follow)
      if not (ok and fits) then pcall(clear_shown) end
    end }),
  }
end

-- pi's answer: drawn only when it answers the latest request and the buffer, its tick and the cursor are still
-- the ones asked about.
function M.show(id, tick, texts)
  local p = pending
  if stopped or not p or p.id ~= id or p.tick ~= tick then return "stale" end
  pending = nil
  local buf, cursor = api.nvim_get_current_buf(), api.nvim_win_get_cursor(0)
  if buf ~= p.buf or api.nvim_buf_get_changedtick(buf) ~= p.tick or cursor[1] - 1 ~= p.row or cursor[2] ~= p.col
    or api.nvim_get_mode().mode ~= "i" or fn.pumvisible() == 1 then
    return "stale"
  end
  local kept = {}
  for _, text in ipairs(type(texts) == "table" and texts or {}) do
    if type(text) == "string" and text ~= "" and #kept < COUNT then kept[#kept + 1] = text end
  end
  if #kept == 0 then return "empty" end
  shown = { buf = buf, row = p.row, col = p.col, tick = p.tick, texts = kept, index = 1 }
  draw()
  offer(shown)
  return "shown"
end

function M.stop()
  if stopped then return end
  stopped = true
  pcall(clear_shown)
  pending = nil
  pcall(timer.stop, timer)
  pcall(timer.close, timer)
  pcall(api.nvim_del_augroup_by_id, group)
  for _, map in ipairs(api.nvim_get_keymap("i")) do
    if ours(map) then pcall(api.nvim_del_keymap, "i", map.lhs) end
  end
  for _, buf in ipairs(api.nvim_list_bufs()) do pcall(api.nvim_buf_clear_namespace, buf, ns, 0, -1) end
  if vim.g.${SUGGEST_OWNER_VARIABLE} == channel then vim.g.${SUGGEST_OWNER_VARIABLE} = nil end
  package.loaded[name] = nil
end

package.loaded[name] = M
local ask_later = vim.schedule_wrap(function() pcall(ask, false) end)
-- Every key in Insert mode: the pause starts again; ghost text stays only while it still fits.
local function on_change()
  if shown then
    if follow() then return end
    clear_shown()
  end
  cancel_pending()
  timer:stop()
  timer:start(debounce_ms, 0, ask_later)
end
api.nvim_create_autocmd("TextChangedI", { group = group, callback = function() pcall(on_change) end })
api.nvim_create_autocmd({ "InsertLeave", "BufLeave" }, { group = group, callback = function() pcall(dismiss) end })
api.nvim_create_autocmd("User", { group = group, pattern = "pi_ide_gone_" .. channel,
  callback = function() pcall(M.stop) end })
if type(keys.ask) == "string" then
  if users(keys.ask) then
    ask_taken = true
  else
    api.nvim_set_keymap("i", keys.ask, "", { noremap = true, silent = true, desc = DESC .. "ask",
      callback = function() pcall(ask, true) end })
  end
end
return { owner = channel, unoffered = unoffered() }`;

/**
 * Args: channel, the request's id, its change tick, the texts (0 to 3). pi's answer, drawn by the module the
 * start chunk left for this channel; it says what became of it: `shown`, `stale` (the buffer, its tick or the
 * cursor moved on, or a newer request), `empty`, or `gone` (no suggestions of pi's run there).
 */
export const SUGGEST_SHOW_LUA = `local channel, id, tick, texts = ...
local running = package.loaded["pi_ide_suggest." .. channel]
if type(running) ~= "table" then return "gone" end
return running.show(id, tick, texts)`;

/** Args: channel. pi stops its suggestions: nothing of them stays (ghost text, mappings, autocmds, the claim). */
export const SUGGEST_STOP_LUA = `local running = package.loaded["pi_ide_suggest." .. ...]
if type(running) == "table" then pcall(running.stop) end
return true`;
