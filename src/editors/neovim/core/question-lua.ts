import { QUESTION_KEYS_ARMED_MS } from "../../../shared/core/timing.ts";
import { ASK_NOTIFICATION } from "./ask-lua.ts";

/**
 * pi's questions in Neovim (questions/: a run this Neovim asked), verbatim (docs/security.md quotes it), as
 * core/lua.ts: fixed text, every dynamic value an argument (`...`), every callback wrapped in `pcall`.
 *
 * A small floating window (0.7.2's windows have no title: the title is its first lines), the choices numbered;
 * a digit or Enter on a choice answers, Esc or `q` closes only this copy (pi's dialog still decides); a notice
 * has no choices. It takes the focus only from Normal mode: in Insert mode or a half-typed command it waits for
 * Normal mode, with a one-line note; when pi runs in this Neovim's own terminal it opens without the focus.
 * Answers go as notifications, so nothing blocks: no `inputlist()`, no "Press ENTER". Its state is the module
 * `package.loaded["pi_ide_questions"]`, one question at a time.
 */
const QUESTION_MODULE = String.raw`
Q = { protocol = 1 }
package.loaded["pi_ide_questions"] = Q
local ARMED_MS = ${QUESTION_KEYS_ARMED_MS}
Q.group = api.nvim_create_augroup("pi_ide_questions", { clear = true })

-- A one-line window over the bottom right, never focused: the echo area would be redrawn over in Insert mode.
local function note(text)
  local buf = api.nvim_create_buf(false, true)
  text = tostring(text):gsub("[%c]", " ")
  api.nvim_buf_set_lines(buf, 0, -1, false, { text })
  vim.bo[buf].bufhidden = "wipe"
  local width = math.max(1, math.min(fn.strdisplaywidth(text), vim.o.columns - 2))
  Q.note_win = api.nvim_open_win(buf, false, {
    relative = "editor", anchor = "SE", style = "minimal", focusable = false, width = width, height = 1,
    row = math.max(1, vim.o.lines - vim.o.cmdheight - 1), col = vim.o.columns,
  })
  vim.wo[Q.note_win].winhighlight = "Normal:MoreMsg"
end

local function split(text)
  local out = {}
  for line in (tostring(text) .. "\n"):gmatch("(.-)\n") do out[#out + 1] = (line:gsub("[%c]", " ")) end
  return out
end

-- The window goes, and with it its buffer (bufhidden=wipe); the question is forgotten.
function Q.close()
  local shown, note_win = Q.shown, Q.note_win
  Q.shown, Q.waiting, Q.note_win = nil, nil, nil
  pcall(api.nvim_clear_autocmds, { group = Q.group })
  for _, win in ipairs({ shown and shown.win or -1, note_win or -1 }) do
    if api.nvim_win_is_valid(win) then pcall(api.nvim_win_close, win, true) end
  end
end

local function reply(method, choice)
  local shown = Q.shown
  if not shown then return end
  local params = { id = shown.q.id }
  if choice then params.choice = choice end
  Q.close()
  pcall(vim.rpcnotify, shown.channel, "${ASK_NOTIFICATION}", method, params)
end

local function map(buf, lhs, run)
  vim.keymap.set("n", lhs, function()
    -- Deaf for its first moment: a key meant for the buffer (Enter, a count) never answers for the user.
    if Q.shown and Q.shown.armed then pcall(run) end
  end, { buffer = buf, nowait = true, silent = true })
end

function Q.open(channel, q, focus)
  local lines = split(q.title ~= "" and q.title or q.text)
  local title_lines = #lines
  for i, choice in ipairs(q.choices) do lines[#lines + 1] = i .. " " .. tostring(choice):gsub("[%c]", " ") end
  if #q.choices == 0 then lines[#lines + 1] = "(answer in pi; q closes this)" end
  local buf = api.nvim_create_buf(false, true)
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].bufhidden, vim.bo[buf].modifiable = "wipe", false
  for i = 0, title_lines - 1 do api.nvim_buf_add_highlight(buf, -1, "Title", i, 0, -1) end
  local width = 20
  for _, line in ipairs(lines) do width = math.max(width, fn.strdisplaywidth(line)) end
  width = math.min(width, math.max(10, vim.o.columns - 6))
  local rows = 0
  for _, line in ipairs(lines) do rows = rows + math.max(1, math.ceil(fn.strdisplaywidth(line) / width)) end
  local height = math.min(rows, math.max(1, vim.o.lines - 6))
  -- A notice is read, not answered: it never takes the focus.
  local win = api.nvim_open_win(buf, focus and #q.choices > 0, {
    relative = "editor", style = "minimal", border = "rounded", width = width, height = height,
    row = math.max(0, math.floor((vim.o.lines - height) / 2) - 1), col = math.floor((vim.o.columns - width) / 2),
  })
  vim.wo[win].wrap = true
  local shown = { channel = channel, q = q, win = win, armed = false }
  Q.shown = shown
  vim.defer_fn(function() shown.armed = true end, ARMED_MS)
  if #q.choices > 0 then pcall(api.nvim_win_set_cursor, win, { title_lines + 1, 0 }) end
  -- A digit answers at once up to nine choices; from ten, Enter on the choice's line.
  if #q.choices <= 9 then
    for i = 1, #q.choices do map(buf, tostring(i), function() reply("answer", i) end) end
  end
  map(buf, "<CR>", function()
    local i = api.nvim_win_get_cursor(0)[1] - title_lines
    if i >= 1 and i <= #q.choices then reply("answer", i) end
  end)
  for _, key in ipairs({ "q", "<Esc>" }) do map(buf, key, function() reply("dismiss") end) end
  -- Closed another way (:q, :only): only this copy goes, as with q.
  api.nvim_create_autocmd("WinClosed", {
    group = Q.group, pattern = tostring(win), once = true,
    callback = function() if Q.shown and Q.shown.win == win then pcall(reply, "dismiss") end end,
  })
end

local function same(current, channel, id)
  return current ~= nil and current.channel == channel and current.q.id == id
end

-- Shown now with the focus from Normal mode, without it when pi runs in this Neovim's terminal; else at the
-- next Normal mode, said in one line meanwhile. Another pi's question on screen: "busy" (that pi asks again).
function Q.show(channel, q, quiet)
  local mode = api.nvim_get_mode().mode
  -- pi asks again while this one waits (a prompt's end is no mode change): shown once Neovim is in Normal mode.
  if same(Q.waiting, channel, q.id) and not quiet then
    if mode ~= "n" then return end
    Q.close()
    return Q.open(channel, q, true)
  end
  if same(Q.shown, channel, q.id) then return end
  local other = Q.shown or Q.waiting
  if other and other.channel ~= channel and fn.empty(api.nvim_get_chan_info(other.channel)) == 0 then
    return "busy"
  end
  Q.close()
  if quiet or mode == "n" then return Q.open(channel, q, not quiet) end
  Q.waiting = { channel = channel, q = q }
  note("pi asks: " .. split(q.title ~= "" and q.title or q.text)[1] .. " (shown in Normal mode)")
  api.nvim_create_autocmd("ModeChanged", {
    group = Q.group, pattern = "*:n",
    callback = function()
      local waiting = Q.waiting
      if not waiting then return true end
      vim.schedule(function()
        if Q.waiting ~= waiting then return end
        Q.close()
        pcall(Q.open, waiting.channel, waiting.q, true)
      end)
      return true
    end,
  })
end

-- pi left (its channel gone, or its asks removed): its question goes with it.
function Q.drop(channel)
  local current = Q.shown or Q.waiting
  if current and current.channel == channel then Q.close() end
end
`;

/**
 * Args: channel, question (`{ id, title, choices }` or `{ id, text, choices = {} }`), quiet (pi runs in this
 * Neovim's terminal). "shown", "waiting" (for Normal mode) or "busy" (another pi's question is on screen).
 */
export const QUESTION_SHOW_LUA = `local channel, q, quiet = ...
local api, fn = vim.api, vim.fn
local Q = package.loaded["pi_ide_questions"]
if type(Q) ~= "table" or Q.protocol ~= 1 then
${QUESTION_MODULE}
end
local answer = Q.show(channel, { id = q.id, title = q.title or "", text = q.text or "", choices = q.choices or {} }, quiet == true)
return answer or (Q.waiting and "waiting" or "shown")`;

/** Args: channel, id. That pi's question goes (answered elsewhere, closed in pi), if it is the one shown or waiting. */
export const QUESTION_CLOSE_LUA = `local channel, id = ...
local Q = package.loaded["pi_ide_questions"]
if type(Q) ~= "table" or Q.protocol ~= 1 then return true end
local current = Q.shown or Q.waiting
if current and current.channel == channel and current.q.id == id then Q.close() end
return true`;
