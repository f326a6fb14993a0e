/**
 * What pi's ghost text left in a real Neovim, read over the test's own connection (`RealNeovim.lua`): the
 * extmarks of its namespace as drawn, its mappings, autocmds, claim and module. Shared by the Lua's tests and
 * the end-to-end ones.
 */
import type { RealNeovim } from "./real-neovim.ts";

/** One extmark of the namespace in the current buffer: its first line as drawn, the lines below, where. */
export interface GhostMark {
	row: number;
	col: number;
	text: string;
	below: string[];
	pos?: string;
}

const GHOST_LUA = `
local ns = vim.api.nvim_get_namespaces()["pi_ide_suggest"]
if not ns then return {} end
local out = {}
for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, { details = true })) do
  local details, text, below = mark[4], "", {}
  for _, chunk in ipairs(details.virt_text or {}) do text = text .. chunk[1] end
  for _, line in ipairs(details.virt_lines or {}) do
    local drawn = ""
    for _, chunk in ipairs(line) do drawn = drawn .. chunk[1] end
    below[#below + 1] = drawn
  end
  out[#out + 1] = { row = mark[2], col = mark[3], text = text, below = below, pos = details.virt_text_pos }
end
return out`;

export async function ghostMarks(nvim: RealNeovim): Promise<GhostMark[]> {
	const marks = (await nvim.lua(GHOST_LUA)) as GhostMark[] | Record<string, never>;
	return Array.isArray(marks) ? marks : [];
}

/** Everything of pi's ghost text in Neovim: nothing of it should stay once pi stopped or is gone. */
export interface GhostLeftovers {
	marks: number;
	maps: string[];
	autocmds: string[];
	owner?: number;
	modules: string[];
}

const LEFTOVERS_LUA = `
local api = vim.api
local ns = api.nvim_get_namespaces()["pi_ide_suggest"]
local out = { marks = 0, maps = {}, autocmds = {}, owner = vim.g.pi_ide_suggest_owner, modules = {} }
local function ours(map) return type(map.desc) == "string" and map.desc:match("^pi%-ide%-context") ~= nil end
for _, buf in ipairs(api.nvim_list_bufs()) do
  if ns then out.marks = out.marks + #api.nvim_buf_get_extmarks(buf, ns, 0, -1, {}) end
  for _, map in ipairs(api.nvim_buf_get_keymap(buf, "i")) do if ours(map) then out.maps[#out.maps + 1] = map.lhs end end
end
for _, map in ipairs(api.nvim_get_keymap("i")) do if ours(map) then out.maps[#out.maps + 1] = map.lhs end end
for _, autocmd in ipairs(api.nvim_get_autocmds({})) do
  if autocmd.group_name and autocmd.group_name:match("^pi_ide_suggest") then
    out.autocmds[#out.autocmds + 1] = autocmd.group_name .. " " .. autocmd.event
  end
end
for name in pairs(package.loaded) do
  if name:match("^pi_ide_suggest") then out.modules[#out.modules + 1] = name end
end
return out`;

export async function ghostLeftovers(nvim: RealNeovim): Promise<GhostLeftovers> {
	const left = (await nvim.lua(LEFTOVERS_LUA)) as GhostLeftovers;
	const list = (value: unknown) => (Array.isArray(value) ? (value as string[]) : []);
	return {
		marks: left.marks,
		maps: list(left.maps),
		autocmds: list(left.autocmds),
		...(typeof left.owner === "number" && { owner: left.owner }),
		modules: list(left.modules),
	};
}

export const NOTHING_LEFT: GhostLeftovers = { marks: 0, maps: [], autocmds: [], modules: [] };

/** The buffer's lines, for what an accept or an undo left. */
export async function bufferLines(nvim: RealNeovim): Promise<string[]> {
	return (await nvim.lua("return vim.api.nvim_buf_get_lines(0, 0, -1, false)")) as string[];
}
