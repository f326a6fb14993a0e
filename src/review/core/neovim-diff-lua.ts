/**
 * The Lua a review sends into Neovim, verbatim (docs/security.md quotes it, a test keeps it so). As in
 * editors/neovim/core/lua.ts, the text never changes: the channel, the group, the file, its name and both texts
 * travel as arguments (`...`), so nothing the model wrote is ever run as code. A review is two scratch buffers of
 * pi's own in a tab page of pi's own; the user's buffers and windows are never touched, and nothing is written to
 * disk. Everything of a review lives in the group `pi_ide_review_<channel>`, removed once pi's channel is gone.
 */

/**
 * What both chunks start with: finding a review's buffers by the variable pi puts on them, and closing them.
 * Its autocmds go first, so pi's own close sends no "closed"; windows leave diff mode before their buffers go.
 */
const REVIEW_FUNCTIONS = `
local api = vim.api

local function drop_empty_group(group_name)
  local ok, left = pcall(api.nvim_get_autocmds, { group = group_name })
  if ok and #left == 0 then pcall(api.nvim_del_augroup_by_name, group_name) end
end

local function reviews_of(channel, id)
  local found = {}
  for _, buf in ipairs(api.nvim_list_bufs()) do
    local ok, review = pcall(api.nvim_buf_get_var, buf, "pi_ide_review")
    if ok and type(review) == "table" and review.channel == channel and (id == nil or review.id == id) then
      found[#found + 1] = { buf = buf, review = review }
    end
  end
  return found
end

-- id nil: every review of that channel. The tab page closes with its last window, unless it is Neovim's last
-- one (then a window of the user's stays); a user who was looking at it goes back to where the review began.
local function close_reviews(channel, group_name, id)
  local found = reviews_of(channel, id)
  local current = api.nvim_get_current_tabpage()
  local tabs, back = {}, nil
  for _, item in ipairs(found) do
    for _, autocmd in ipairs(item.review.autocmds or {}) do pcall(api.nvim_del_autocmd, autocmd) end
    for _, win in ipairs(vim.fn.win_findbuf(item.buf)) do
      pcall(api.nvim_win_call, win, function() vim.cmd("diffoff") end)
    end
    tabs[item.review.tab] = true
    if item.review.tab == current then back = item.review.from end
  end
  for _, item in ipairs(found) do pcall(api.nvim_buf_delete, item.buf, { force = true }) end
  for tab in pairs(tabs) do
    if api.nvim_tabpage_is_valid(tab) and #api.nvim_list_tabpages() > 1 then
      pcall(vim.cmd, "tabclose " .. api.nvim_tabpage_get_number(tab))
    end
  end
  if back and api.nvim_tabpage_is_valid(back) then pcall(api.nvim_set_current_tabpage, back) end
  drop_empty_group(group_name)
  return #found
end
`;

/**
 * Args: pi's channel, the group name, and the review: `{ id, file, deadline, enter, names = { left, right },
 * left = side, right = side }`, each side `{ lines, eol, dos, bom }` (the text split by pi, core/neovim-diff-protocol.ts).
 * Opens a new tab page: on the left the file as on disk (or nothing, a new file), not modifiable; on the right the
 * proposal, editable, `buftype=acwrite`; both in the file's filetype and in diff mode. `:w` of the proposal sends
 * "accepted" with its text, `:PiReject [reason]` "rejected", closing its window or wiping it "closed"; one message
 * per review. With `enter` (and Neovim in Normal mode) the user is taken there, else they stay where they were.
 * A deadline passed (pi stopped waiting, a prompt held the request) opens nothing. Returns `{ ok, tab, entered }`
 * or `{ ok = false, reason }`, leaving nothing behind.
 */
export const NEOVIM_DIFF_OPEN_LUA = `${REVIEW_FUNCTIONS}
local channel, group_name, request = ...
local uv = vim.uv or vim.loop
local seconds, micros = uv.gettimeofday()
if seconds + micros / 1e6 > request.deadline then return { ok = false, reason = "too late: pi stopped waiting" } end
if vim.fn.getcmdwintype() ~= "" then return { ok = false, reason = "Neovim's command-line window is open" } end
local id = request.id
local LIVENESS_EVENTS = { "CursorMoved", "CursorMovedI", "ModeChanged", "BufEnter", "WinEnter", "TabEnter",
  "CmdlineEnter", "FocusGained" }
local from_tab, from_win = api.nvim_get_current_tabpage(), api.nvim_get_current_win()
local mode = api.nvim_get_mode().mode
local made_bufs, made_wins, made_autocmds = {}, {}, {}
local ignoring = vim.o.eventignore

local function scratch(side, name)
  local buf = api.nvim_create_buf(false, true)
  made_bufs[#made_bufs + 1] = buf
  vim.bo[buf].undolevels = -1
  api.nvim_buf_set_lines(buf, 0, -1, false, side.lines)
  vim.bo[buf].undolevels = -123456
  vim.bo[buf].eol = side.eol
  vim.bo[buf].fileformat = side.dos and "dos" or "unix"
  vim.bo[buf].bomb = side.bom
  vim.bo[buf].swapfile = false
  vim.bo[buf].modeline = false
  vim.bo[buf].bufhidden = "wipe"
  if not pcall(api.nvim_buf_set_name, buf, name) then api.nvim_buf_set_name(buf, name .. " " .. id) end
  vim.bo[buf].modified = false
  return buf
end

-- Split from a window of the user's that is not floating, then back to where the user was. (Not inside
-- nvim_win_call: a tab page made there crashes 0.7.2 once its last window closes.)
local function layout(left, right)
  if api.nvim_win_get_config(from_win).relative ~= "" then
    api.nvim_set_current_win(api.nvim_tabpage_list_wins(from_tab)[1])
  end
  vim.cmd("tab split")
  local tab, right_win = api.nvim_get_current_tabpage(), api.nvim_get_current_win()
  made_wins[#made_wins + 1] = right_win
  api.nvim_win_set_buf(right_win, right)
  vim.cmd("leftabove vsplit")
  local left_win = api.nvim_get_current_win()
  made_wins[#made_wins + 1] = left_win
  api.nvim_win_set_buf(left_win, left)
  vim.cmd("diffthis")
  api.nvim_set_current_win(right_win)
  vim.cmd("diffthis")
  -- Both sides' folds from the diff (0.7 leaves the second window's open, so equal lines sit apart).
  vim.cmd("normal! zX")
  api.nvim_set_current_tabpage(from_tab)
  api.nvim_set_current_win(from_win)
  -- Leaving the window ended a Visual selection: the same one again, the cursor at the same end.
  if mode:match("^[vV\\22]") then vim.cmd("normal! gv") end
  return tab, right_win
end

-- 0.8 and later answer by name and content; 0.7 runs its detection autocmds in the buffer, modelines ignored.
-- The path is never part of a command's text: a file name may hold a newline.
local function detect_filetype(buf, path)
  if vim.fn.has("nvim-0.8") == 1 then
    local ok, filetype, on_detect = pcall(vim.filetype.match, { filename = path, buf = buf })
    if ok and type(filetype) == "string" then
      vim.bo[buf].filetype = filetype
      if type(on_detect) == "function" then pcall(on_detect, buf) end
    end
  else
    pcall(api.nvim_buf_call, buf, function()
      api.nvim_exec_autocmds("BufRead", { group = "filetypedetect", pattern = path, modeline = false })
    end)
  end
  return vim.bo[buf].filetype
end

local function open()
  -- The user's autocmds see nothing of the buffers set up and the tab page made: only the tab page they enter.
  vim.o.eventignore = "all"
  local left = scratch(request.left, request.names.left)
  vim.bo[left].modifiable = false
  local right = scratch(request.right, request.names.right)
  vim.bo[right].buftype = "acwrite"
  local tab, right_win = layout(left, right)
  vim.o.eventignore = ignoring
  local filetype = detect_filetype(right, request.file)
  if filetype ~= "" then vim.bo[left].filetype = filetype end

  local group = api.nvim_create_augroup(group_name, { clear = false })
  local decided = false
  local function send(kind, text)
    if decided then return end
    decided = true
    if not pcall(vim.rpcnotify, channel, "pi_ide_diff", id, kind, text) then
      vim.schedule(function() pcall(close_reviews, channel, group_name, nil) end)
    end
  end
  local function accept()
    local lines = api.nvim_buf_get_lines(right, 0, -1, false)
    local ending = vim.bo[right].fileformat == "dos" and "\\r\\n" or "\\n"
    vim.bo[right].modified = false
    send("accepted", table.concat(lines, ending) .. (vim.bo[right].eol and ending or ""))
  end
  -- Its autocmds go at once: once both windows are gone (:tabclose) its buffers, which name them, are wiped too.
  local function closed()
    send("closed")
    for _, autocmd in ipairs(made_autocmds) do pcall(api.nvim_del_autocmd, autocmd) end
    vim.schedule(function() pcall(close_reviews, channel, group_name, id) end)
  end
  local function check_channel()
    if api.nvim_get_chan_info(channel).id == nil then
      vim.schedule(function() pcall(close_reviews, channel, group_name, nil) end)
    end
  end
  -- Callbacks return nothing: a callback returning true would delete its autocmd.
  local function on(event, options, callback)
    options.group = group
    options.callback = function() pcall(callback) end
    made_autocmds[#made_autocmds + 1] = api.nvim_create_autocmd(event, options)
  end
  on("BufWriteCmd", { buffer = right }, accept)
  on("BufWipeout", { buffer = right }, closed)
  on("WinClosed", { pattern = tostring(right_win) }, closed)
  on(LIVENESS_EVENTS, {}, check_channel)
  local review = { channel = channel, id = id, tab = tab, from = from_tab, autocmds = made_autocmds }
  for _, buf in ipairs({ left, right }) do
    api.nvim_buf_set_var(buf, "pi_ide_review", review)
    api.nvim_buf_create_user_command(buf, "PiReject", function(command) pcall(send, "rejected", command.args) end,
      { nargs = "*", desc = "pi: reject the proposed change, with an optional reason" })
  end
  local entered = request.enter and (mode == "n" or mode == "nt")
  if entered then api.nvim_set_current_win(right_win) end
  return { ok = true, tab = api.nvim_tabpage_get_number(tab), entered = entered }
end

local ok, result = pcall(open)
vim.o.eventignore = ignoring
if ok then return result end
for _, autocmd in ipairs(made_autocmds) do pcall(api.nvim_del_autocmd, autocmd) end
for _, win in ipairs(made_wins) do pcall(api.nvim_win_close, win, true) end
for _, buf in ipairs(made_bufs) do pcall(api.nvim_buf_delete, buf, { force = true }) end
drop_empty_group(group_name)
pcall(api.nvim_set_current_tabpage, from_tab)
pcall(api.nvim_set_current_win, from_win)
return { ok = false, reason = tostring(result) }
`;

/** Args: pi's channel, the group name, the review's id. Closes that review; says how many buffers it closed. */
export const NEOVIM_DIFF_CLOSE_LUA = `${REVIEW_FUNCTIONS}
local channel, group_name, id = ...
return close_reviews(channel, group_name, id)
`;
