import { MAX_LISTED_BUFFERS } from "../../core/ask-methods.ts";

/**
 * The part of asks' Lua (core/ask-lua.ts) that the user sees: the commands, what an ask carries (each
 * placeholder's text at that moment, within the state's caps), the prompt buffer, the numbered choice of pi and
 * the reply's view. Read-only scratch buffers of pi's own; nothing from pi or the reply is ever run.
 */
export const ASK_VIEWS_LUA = String.raw`
local PLACEHOLDERS = {
  { word = "@this", menu = "the selection, else the cursor's line" },
  { word = "@selection", menu = "the selection" },
  { word = "@buffer", menu = "the file's path" },
  { word = "@buffers", menu = "the files of the listed buffers" },
  { word = "@diagnostics", menu = "the file's diagnostics" },
}
local MAX_BUFFERS = ${MAX_LISTED_BUFFERS}

local function scratch(lines, height, name)
  vim.cmd("botright " .. height .. "new")
  local buf = api.nvim_get_current_buf()
  vim.bo[buf].buftype, vim.bo[buf].bufhidden, vim.bo[buf].swapfile = "nofile", "wipe", false
  vim.bo[buf].modeline = false
  pcall(api.nvim_buf_set_name, buf, name)
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  return buf, api.nvim_get_current_win()
end

local function map(buf, modes, lhs, run)
  for _, mode in ipairs(modes) do
    vim.keymap.set(mode, lhs, function() pcall(run) end, { buffer = buf, nowait = true, silent = true })
  end
end

local function file_of(buf)
  if vim.bo[buf].buftype ~= "" then return nil end
  local name = path_or_nil(api.nvim_buf_get_name(buf))
  return name and name:sub(1, 1) == "/" and name or nil
end

local function span(buf, first, last, text, columns)
  local file = file_of(buf)
  local out = { file = file, name = file == nil and "[No Name]" or nil, startLine = first, endLine = last, text = text }
  if columns then out.startColumn, out.endColumn = columns[1], columns[2] end
  return out
end

-- What the command was run on: a Visual selection (its marks match the range), a range of lines, else the
-- cursor's line. Columns only for a selection inside one line, as the state reports it.
local function capture(opts)
  local buf, win = api.nvim_get_current_buf(), api.nvim_get_current_win()
  local ctx = { buf = buf }
  if opts.range == 2 then
    local a, b = api.nvim_buf_get_mark(buf, "<"), api.nvim_buf_get_mark(buf, ">")
    local kind = fn.visualmode()
    if kind ~= "" and a[1] == opts.line1 and b[1] == opts.line2 then
      local s, e, text = region(buf, kind, { a[1], a[2] + 1 }, { b[1], b[2] + 1 })
      local columns = (kind == "v" and s.line == e.line) and { s.column, e.column } or nil
      ctx.selection = span(buf, s.line, e.line, columns and text or lines_text(buf, s.line, e.line), columns)
    else
      ctx.selection = span(buf, opts.line1, opts.line2, lines_text(buf, opts.line1, opts.line2))
    end
  elseif opts.range == 1 then
    ctx.line = span(buf, opts.line1, opts.line1, lines_text(buf, opts.line1, opts.line1))
  else
    local line = api.nvim_win_get_cursor(win)[1]
    ctx.line = span(buf, line, line, lines_text(buf, line, line))
  end
  return ctx
end

-- Only what the prompt names is sent (pi matches the placeholders exactly; this only spares the work).
local function placeholders(text, ctx)
  -- An empty Lua table crosses msgpack as an array: this one is a map.
  local used, out = {}, vim.empty_dict()
  for word in text:gmatch("@(%a+)") do used[word] = true end
  local buf = ctx.buf
  if used.selection and ctx.selection then out.selection = ctx.selection end
  if used.this then out.this = ctx.selection or ctx.line end
  if not api.nvim_buf_is_valid(buf) then return out end
  local file = file_of(buf)
  if used.buffer then
    out.buffer = file and { file = file } or { name = "[No Name]", text = lines_text(buf, 1, api.nvim_buf_line_count(buf)) }
  end
  if used.buffers then
    local list = {}
    for _, info in ipairs(fn.getbufinfo({ buflisted = 1 })) do
      local listed = file_of(info.bufnr)
      if listed and #list < MAX_BUFFERS then list[#list + 1] = { file = listed } end
    end
    out.buffers = list
  end
  if used.diagnostics then
    out.diagnostics = { file = file, name = file == nil and "[No Name]" or nil, items = diagnostics(buf) }
  end
  return out
end

function M.ask(text, ctx)
  if not text:match("%S") then return M.say("pi: nothing to ask", "info") end
  M.to_pi("ask", { prompt = text, placeholders = placeholders(text, ctx) })
end

_G.PiIdeAsksComplete = function(findstart, base)
  if findstart == 1 then
    local line, col = api.nvim_get_current_line(), api.nvim_win_get_cursor(0)[2]
    local start = col
    while start > 0 and line:sub(start, start):match("[%w@]") do start = start - 1 end
    return start
  end
  local out = {}
  for _, item in ipairs(PLACEHOLDERS) do
    if item.word:sub(1, #base) == base then out[#out + 1] = { word = item.word, menu = item.menu } end
  end
  return out
end

-- :Pi without a prompt: a small buffer, several lines; Enter (Normal) or Ctrl-S sends, Esc or q cancels.
function M.prompt(ctx)
  local buf, win = scratch({ "" }, 6, "pi://ask")
  M.prompt_buf = buf
  vim.bo[buf].completefunc = "v:lua.PiIdeAsksComplete"
  local function close() pcall(api.nvim_win_close, win, true) end
  local function submit()
    local text = table.concat(api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
    vim.cmd("stopinsert")
    close()
    M.ask(text, ctx)
  end
  map(buf, { "n" }, "<CR>", submit)
  map(buf, { "n", "i" }, "<C-s>", submit)
  map(buf, { "n" }, "<Esc>", close)
  map(buf, { "n" }, "q", close)
  -- The placeholders pop up after "@" without taking the line: nothing is inserted until one is chosen.
  local completeopt = vim.o.completeopt
  local function quiet() vim.o.completeopt = "menuone,noinsert,noselect" end
  local function restore() vim.o.completeopt = completeopt end
  quiet()
  api.nvim_create_autocmd("BufEnter", { group = M.group, buffer = buf, callback = quiet })
  api.nvim_create_autocmd({ "BufLeave", "BufWipeout" }, { group = M.group, buffer = buf, callback = restore })
  vim.keymap.set("i", "@", "@<C-x><C-u>", { buffer = buf, silent = true })
  M.say("pi: type the prompt; Enter (Normal) or Ctrl-S sends, Esc or q cancels, @ completes", "info")
  vim.cmd("startinsert")
end

-- Several pis read this Neovim and none is connected to it: a numbered list, a digit picks.
function M.choose(list, picked)
  local lines = { "Which pi takes the ask? (a digit picks, q closes)" }
  for index, channel in ipairs(list) do
    local pi = M.pis[channel]
    lines[#lines + 1] = string.format("%d  pi %d  %s", index, pi.pid, pi.project)
  end
  local buf, win = scratch(lines, #lines, "pi://choose")
  M.choose_buf = buf
  vim.bo[buf].modifiable = false
  local function close() pcall(api.nvim_win_close, win, true) end
  for index = 1, math.min(#list, 9) do
    map(buf, { "n" }, tostring(index), function()
      close()
      picked(list[index])
    end)
  end
  map(buf, { "n" }, "q", close)
  map(buf, { "n" }, "<Esc>", close)
end

-- The reply's view: a read-only scratch buffer (Markdown), replaced as the reply streams; its close is told.
function M.open_reply(channel)
  local buf = M.reply_buf
  if not (buf and api.nvim_buf_is_valid(buf)) then
    buf = scratch({ "pi: asking for the reply..." }, 15, "pi://reply")
    M.reply_buf = buf
    vim.bo[buf].modifiable = false
    vim.bo[buf].filetype = "markdown"
    api.nvim_create_autocmd("BufWipeout", {
      group = M.group,
      buffer = buf,
      callback = function()
        M.reply_buf = nil
        if M.reply_channel and M.pis[M.reply_channel] then pcall(vim.rpcnotify, M.reply_channel, "pi_ide_ask", "replyClosed", {}) end
      end,
    })
  end
  M.reply_channel = channel
  M.send(channel, "reply", {})
end

function M.show_reply(channel, text, streaming)
  local buf = M.reply_buf
  if not (buf and api.nvim_buf_is_valid(buf)) or M.reply_channel ~= channel then return "closed" end
  local lines = vim.split(text, "\n", { plain = true })
  if streaming then lines[#lines + 1] = "" lines[#lines + 1] = "[pi is still writing]" end
  vim.bo[buf].modifiable = true
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  return "shown"
end

local function complete_placeholders(lead)
  local out = {}
  for _, item in ipairs(PLACEHOLDERS) do
    if item.word:sub(1, #lead) == lead then out[#out + 1] = item.word end
  end
  return out
end

M.options = {
  Pi = { nargs = "*", range = true, complete = function(lead) return complete_placeholders(lead) end },
  PiAdd = { range = true },
  PiStop = { nargs = 0 },
  PiReply = { nargs = 0 },
}

M.commands = {
  Pi = function(opts)
    local ctx = capture(opts)
    if opts.args == "" then M.prompt(ctx) else M.ask(opts.args, ctx) end
  end,
  PiAdd = function(opts)
    local ctx = capture(opts)
    local at = ctx.selection or ctx.line
    if not at.file then return M.say("pi: this buffer has no file to reference", "error") end
    M.to_pi("add", { file = at.file, startLine = at.startLine, endLine = at.endLine })
  end,
  PiStop = function() M.to_pi("stop", {}) end,
  PiReply = function() M.target(M.open_reply) end,
}
`;
