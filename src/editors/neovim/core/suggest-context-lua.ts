import { UTF8_CUT_LUA } from "./lua.ts";
import { MAX_PATH_BYTES } from "./snapshot-caps.ts";

/**
 * The functions the ghost text's start chunk (core/suggest-lua.ts) opens with: what Neovim tells pi of the
 * cursor's context (the text on each side, cut as pi's request cuts it; Neovim 0.9+'s treesitter outline) and
 * the tabs of a text drawn as spaces. Pure reads of the buffer; docs/security.md quotes them.
 */

/**
 * What Neovim sends of the cursor's context, each side, in UTF-8 bytes: what pi's request keeps
 * (suggestions/core/request.ts `CURSOR_CONTEXT_MAX_BYTES`; a test keeps the two in step). Bytes, not lines:
 * pi-ide.nvim's 20 lines before and 10 after fit well inside.
 */
export const SUGGEST_CONTEXT_BYTES = 8192;
/** The treesitter outline's cap (Neovim 0.9+): pi's request keeps 12 000 characters, never fewer than bytes. */
export const SUGGEST_OUTLINE_BYTES = 12_000;
/** A path longer than this names no file (pi's request refuses it); a filetype longer than this is not sent. */
export const SUGGEST_MAX_PATH_BYTES = MAX_PATH_BYTES;
export const SUGGEST_MAX_LANGUAGE_BYTES = 64;
/** Alternatives asked for and drawn, cycled with the next/previous keys and marked `[i/n]`. */
export const SUGGEST_COUNT = 3;

/** The caps above written into the text once, then the functions. */
export const SUGGEST_FUNCTIONS = String.raw`local api, fn = vim.api, vim.fn
local CONTEXT_BYTES, OUTLINE_BYTES, MAX_PATH_BYTES, MAX_LANGUAGE_BYTES, COUNT = ${SUGGEST_CONTEXT_BYTES}, ${SUGGEST_OUTLINE_BYTES}, ${SUGGEST_MAX_PATH_BYTES}, ${SUGGEST_MAX_LANGUAGE_BYTES}, ${SUGGEST_COUNT}

${UTF8_CUT_LUA}

-- The last limit bytes, never inside a UTF-8 character.
local function tail(text, limit)
  if #text <= limit then return text end
  local start = #text - limit + 1
  while start <= #text and is_continuation(text, start) do start = start + 1 end
  return text:sub(start)
end

-- The text before and after the cursor (row 0-based, col a byte), each read 100 lines at a time up to its cap.
local function context(buf, row, col, line)
  local parts, bytes, first = { line:sub(1, col) }, col, row
  while first > 0 and bytes < CONTEXT_BYTES do
    local from = math.max(0, first - 100)
    local chunk = api.nvim_buf_get_lines(buf, from, first, false)
    for index = #chunk, 1, -1 do
      parts[#parts + 1] = chunk[index]
      bytes = bytes + #chunk[index] + 1
      if bytes >= CONTEXT_BYTES then break end
    end
    first = from
  end
  local before = {}
  for index = #parts, 1, -1 do before[#before + 1] = parts[index] end
  local after, total, last, count = { line:sub(col + 1) }, #line - col, row + 1, api.nvim_buf_line_count(buf)
  while last < count and total < CONTEXT_BYTES do
    for _, text in ipairs(api.nvim_buf_get_lines(buf, last, math.min(count, last + 100), false)) do
      after[#after + 1] = text
      total = total + #text + 1
      if total >= CONTEXT_BYTES then break end
    end
    last = last + 100
  end
  return tail(table.concat(before, "\n"), CONTEXT_BYTES), cut(table.concat(after, "\n"), CONTEXT_BYTES)
end

-- Neovim 0.9+: the file's declarations from treesitter, one a line with its line number; nil without a parser.
local function outline_of(buf)
  local tree = vim.treesitter.get_parser(buf):parse()[1]
  local out, size, visited = {}, 0, 0
  local function walk(node, level, depth)
    for child in node:iter_children() do
      visited = visited + 1
      if visited > 5000 or size > OUTLINE_BYTES or depth > 6 then return end
      if child:named() then
        local kind = child:type()
        local listed = kind:match("_declaration$") or kind:match("_definition$") or kind:match("_item$")
          or kind == "declaration"
        if listed then
          local row = child:start()
          local text = (api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or ""):gsub("^%s+", "")
          local entry = string.rep("  ", level) .. cut(text, 200) .. "  -- line " .. (row + 1)
          size = size + #entry + 1
          if size <= OUTLINE_BYTES then out[#out + 1] = entry end
          if kind:match("class") or kind:match("interface") or kind:match("impl") or kind:match("struct")
            or kind:match("trait") or kind:match("mod") or kind:match("namespace") or kind:match("enum") then
            walk(child, level + 1, depth + 1)
          end
        else
          walk(child, level, depth + 1)
        end
      end
    end
  end
  walk(tree:root(), 0, 0)
  return #out > 0 and table.concat(out, "\n") or nil
end

local function outline(buf)
  if fn.has("nvim-0.9") == 0 then return nil end
  local ok, text = pcall(outline_of, buf)
  return ok and text or nil
end

-- Tabs drawn as the spaces they take from display column from.
local function expand(text, from, tabstop)
  if not text:find("\t", 1, true) then return text end
  local out, width = {}, from
  for piece, tab in text:gmatch("([^\t]*)(\t?)") do
    out[#out + 1] = piece
    width = width + fn.strdisplaywidth(piece)
    if tab ~= "" then
      local spaces = tabstop - width % tabstop
      out[#out + 1] = string.rep(" ", spaces)
      width = width + spaces
    end
  end
  return table.concat(out)
end`;
