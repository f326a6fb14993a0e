/**
 * The selections a real Neovim with a UI hands pi on both pi lines where only the whole way through can show
 * them: a selection too large for one snapshot (cut, never the editor dropped), and the public plugin's
 * selection made before pi started (timed by the plugin's file, read over the server).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { processFactsLines, spawnPi } from "../support/pi-cli.ts";
import { RealNeovim, requireNeovim } from "../support/real-neovim.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const available = requireNeovim("the Neovim selection end-to-end tests");

/**
 * A client of our own that writes what the public plugin writes (test/fixtures/nvim-client/: protocol v0.2, nil
 * keys left out, the launch args without flags, the last visual selection timed when visual mode was left), into
 * `$PI_IDE_TEST_PLUGIN_DIR/<pid>.json` through a 0600 temp file and a rename; removed when Neovim leaves.
 */
const PLUGIN_LUA = String.raw`
local api, uv = vim.api, vim.uv or vim.loop
local path = os.getenv("PI_IDE_TEST_PLUGIN_DIR") .. "/" .. vim.fn.getpid() .. ".json"
local selected_at = nil

local function selection(buf)
  local a, b = api.nvim_buf_get_mark(buf, "<"), api.nvim_buf_get_mark(buf, ">")
  if a[1] == 0 or selected_at == nil then return nil end
  local lines = api.nvim_buf_get_lines(buf, a[1] - 1, b[1], false)
  local linewise = vim.fn.visualmode() == "V"
  local start_col = linewise and 1 or a[2] + 1
  local end_col = linewise and #lines[#lines] or b[2] + 1
  local text = (a[1] == b[1] and not linewise) and lines[1]:sub(start_col, end_col) or table.concat(lines, "\n")
  return { start = { line = a[1], column = start_col }, ["end"] = { line = b[1], column = end_col }, text = text,
    selected_at = selected_at }
end

local function write()
  local buf = api.nvim_get_current_buf()
  local name = api.nvim_buf_get_name(buf)
  local cursor = api.nvim_win_get_cursor(0)
  local state = { app = "nvim", pid = vim.fn.getpid(), cwd = vim.fn.getcwd(), argv = vim.fn.argv(), timestamp = os.time(),
    active_buffer = { file = name ~= "" and name or nil, name = name ~= "" and vim.fn.fnamemodify(name, ":t") or "[No Name]",
      language = vim.bo[buf].filetype ~= "" and vim.bo[buf].filetype or nil,
      cursor = { line = cursor[1], column = cursor[2] + 1 }, modified = vim.bo[buf].modified,
      lines_total = api.nvim_buf_line_count(buf), selection = selection(buf) } }
  local fd = uv.fs_open(path .. ".tmp", "w", 384)
  uv.fs_write(fd, vim.fn.json_encode(state))
  uv.fs_close(fd)
  uv.fs_rename(path .. ".tmp", path)
end

api.nvim_create_autocmd({ "VimEnter", "BufEnter", "CursorMoved", "ModeChanged" }, { callback = function(event)
  if event.event == "ModeChanged" and (vim.v.event.old_mode or ""):match("^[vV\22]") then selected_at = os.time() end
  pcall(write)
end })
api.nvim_create_autocmd("VimLeavePre", { callback = function() os.remove(path) end })
`;

describe.skipIf(!available).each(processFactsLines())("Neovim's selections through the real $name", (line) => {
	const ws = useE2eWorkspace();
	const scope = () => `nvim-selections-${process.pid}-${ws.root.split("-").at(-1)}`;
	const tmp = () => join(ws.root, "tmp");
	const env = () => ({ TMPDIR: tmp(), XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: scope() });

	async function neovim(args: string[], extraEnv: Record<string, string> = {}): Promise<RealNeovim> {
		const nvim = await RealNeovim.start({
			cwd: ws.project,
			args,
			tmpDir: tmp(),
			ui: true,
			scope: scope(),
			env: extraEnv,
		});
		ws.defer(() => nvim.close());
		return nvim;
	}

	function startPi(): RpcPi {
		mkdirSync(tmp(), { recursive: true });
		return ws.stopLater(
			RpcPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, env: env() }),
		);
	}

	test.skipIf(!line.node)(
		"ggVG over 20 lines of 5 000 characters and 0v$ on a 100 000-character line: the editor and the widget stay, the selection is cut with its note",
		async () => {
			writeFileSync(join(ws.project, "src", "big.ts"), `${Array(20).fill("x".repeat(5000)).join("\n")}\n`);
			writeFileSync(join(ws.project, "src", "long.ts"), `${"y".repeat(100_000)}\n`);
			const nvim = await neovim(["src/big.ts"]);
			const rpc = startPi();
			await rpc.waitForWidget("in big.ts", PI_START_TIMEOUT_MS);

			await nvim.keys("ggVG", "V");
			await rpc.waitForWidget("20 lines selected in big.ts", 3000);
			await rpc.prompt("what is selected?");
			let sent = ws.lastContext();
			expect(sent).toContain("Selection: lines 1-20 (from line 1 column 1 to line 20 column 5000)");
			// The Lua cut at 66 000 bytes inside line 14; pi's own cut keeps 13 whole lines and says so.
			expect(sent).toContain(`${"x".repeat(5000)}\n`.repeat(12));
			expect(sent).toContain("[selection cut at 64 KiB: lines 14-20 left out]");

			await nvim.keys("<Esc>", "n");
			await nvim.command("edit src/long.ts");
			await nvim.keys("0v$", "v");
			await rpc.waitForWidget("1 line selected in long.ts", 3000);
			await rpc.prompt("and now?");
			sent = ws.lastContext();
			expect(sent).toContain("Selection: line 1 (from line 1 column 1 to line 1 column 100000)");
			expect(sent).toContain("[selection cut at 64 KiB: line 1 truncated]");
			expect(sent).not.toContain("state is unknown");

			const status = (await rpc.ideStatus()).join("\n");
			expect(status).toContain(`Connected: nvim ${nvim.pid}`);
			// The Lua's caps are within pi's schema: pi had nothing to cut or leave out.
			expect(status).not.toContain("cut by pi");
		},
	);

	test.skipIf(!line.node)(
		"the public plugin's selection made before pi starts (2GVjj<Esc>) reaches the model fresh, in print and RPC mode",
		async () => {
			const plugin = join(ws.root, "plugin.lua");
			writeFileSync(plugin, PLUGIN_LUA);
			const nvim = await neovim(["-c", `luafile ${plugin}`, "src/main.ts"], { PI_IDE_TEST_PLUGIN_DIR: ws.stateDir });
			const stateFile = join(ws.stateDir, `${nvim.pid}.json`);
			await nvim.keys("2GVjj<Esc>", "n");
			await waitFor("the plugin's file with the selection", () => {
				try {
					return readFileSync(stateFile, "utf8").includes('"selected_at"');
				} catch {
					return false;
				}
			});

			mkdirSync(tmp(), { recursive: true });
			const print = spawnPi(line, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				env: env(),
				args: ["-p", "explain this"],
			});
			expect(await print.exited, print.stderr()).toBe(0);
			const selection = "Selection: lines 2-4 (from line 2 column 1 to line 4 column 5)";
			expect(ws.lastContext()).toContain(selection);
			expect(ws.lastContext()).toContain("line2\nline3\nline4");

			const rpc = startPi();
			await rpc.waitForWidget("3 lines selected in main.ts", PI_START_TIMEOUT_MS);
			await rpc.prompt("explain this");
			expect(ws.lastContext()).toContain(selection);
			expect(ws.lastContext()).toContain("line2\nline3\nline4");
			// Read over the server (the copy that counts), timed by the plugin's file.
			expect((await rpc.ideStatus()).join("\n")).toContain(`nvim ${nvim.pid}: ${nvim.socket}`);
		},
	);
});
