import type { RealNeovim } from "./real-neovim.ts";

/**
 * A pi-ide.nvim-like server in a real Neovim's own process, as the plugin's lives there: a loopback TCP
 * listener opened with `vim.loop` inside Neovim that pipes every connection to `targetPort` (a fake IDE server
 * of the test, which speaks the protocol). The port's owner is Neovim's pid, so a lockfile naming that pid is
 * proven by the port as a real plugin's would be. Returns the port Neovim listens on.
 */
export async function startNeovimRelay(nvim: RealNeovim, targetPort: number): Promise<number> {
	const port = await nvim.lua(
		`local uv = vim.loop
		local target = ...
		local server = uv.new_tcp()
		server:bind("127.0.0.1", 0)
		server:listen(16, function(err)
			if err then return end
			local client = uv.new_tcp()
			server:accept(client)
			local upstream = uv.new_tcp()
			local function close_both()
				if not client:is_closing() then client:close() end
				if not upstream:is_closing() then upstream:close() end
			end
			upstream:connect("127.0.0.1", target, function(connect_err)
				if connect_err then return close_both() end
				client:read_start(function(read_err, data)
					if read_err or not data then return close_both() end
					upstream:write(data)
				end)
				upstream:read_start(function(read_err, data)
					if read_err or not data then return close_both() end
					client:write(data)
				end)
			end)
		end)
		_G.pi_test_relay = server
		return server:getsockname().port`,
		targetPort,
	);
	if (typeof port !== "number") throw new Error(`the relay in Neovim gave no port: ${String(port)}`);
	return port;
}
