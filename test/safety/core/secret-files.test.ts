import { describe, expect, test } from "vitest";
import {
	DEFAULT_SECRET_FILE_PATTERNS,
	secretFileMatcher,
	withheldReason,
} from "../../../src/safety/core/secret-files.ts";

const defaults = secretFileMatcher(DEFAULT_SECRET_FILE_PATTERNS);

describe("secret files by default (basename, case-insensitive)", () => {
	test.each([
		["/p/.env", ".env"],
		["/p/.ENV", ".env"],
		["/p/.env.local", ".env.*"],
		["/p/.env.production", ".env.*"],
		["/home/u/.ssh/id_rsa", "id_rsa"],
		["/home/u/.ssh/id_ed25519", "id_ed25519"],
		["/home/u/.ssh/ID_ECDSA", "id_ecdsa"],
		["/p/certs/server.pem", "*.pem"],
		["/p/tls/server.KEY", "*.key"],
		["/p/keys/store.p12", "*.p12"],
		["/p/keys/store.pfx", "*.pfx"],
		["/p/keys/app.jks", "*.jks"],
		["/p/keys/release.keystore", "*.keystore"],
		["/home/u/.npmrc", ".npmrc"],
		["/home/u/.pypirc", ".pypirc"],
		["/home/u/.netrc", ".netrc"],
		["/home/u/.git-credentials", ".git-credentials"],
		["/home/u/.pgpass", ".pgpass"],
		["/home/u/.aws/credentials", "credentials"],
		["/p/infra/prod.tfvars", "*.tfvars"],
		["/home/u/vault.kdbx", "*.kdbx"],
	])("%s is secret (%s)", (path, pattern) => {
		expect(defaults([path])).toEqual({ pattern, path });
	});

	test.each([
		"/p/.env.example",
		"/p/.env.sample",
		"/p/.env.template",
		"/p/.ENV.Example",
		"/home/u/.ssh/id_rsa.pub",
		"/home/u/.ssh/id_ed25519.pub",
		"/p/src/env.ts",
		"/p/src/keys.ts",
		"/p/src/credentials.ts",
		"/p/environment",
		"/p/.envrc.md",
		"/p/docs/pem.md",
	])("%s is not", (path) => {
		expect(defaults([path])).toBeUndefined();
	});

	test("either path may make it secret: a config.txt linking to .env, a .env linking to secrets/prod.txt", () => {
		expect(defaults(["/p/config.txt", "/p/.env"])).toEqual({ pattern: ".env", path: "/p/.env" });
		expect(defaults(["/p/.env", "/p/secrets/prod.txt"])).toEqual({ pattern: ".env", path: "/p/.env" });
		expect(defaults([undefined, "/p/config.txt"])).toBeUndefined();
	});

	test("user globs add to the defaults; a glob with a slash matches the whole path", () => {
		const matcher = secretFileMatcher([...DEFAULT_SECRET_FILE_PATTERNS, "*.secret.json", "**/config/prod.*"]);
		expect(matcher(["/p/app.secret.json"])?.pattern).toBe("*.secret.json");
		expect(matcher(["/p/deploy/config/prod.yaml"])?.pattern).toBe("**/config/prod.*");
		expect(matcher(["/p/deploy/config/dev.yaml"])).toBeUndefined();
		expect(matcher(["/p/.env"])?.pattern).toBe(".env");
	});

	test("what the block, widget and status say", () => {
		expect(withheldReason({ pattern: ".env.*", path: "/p/.env.local" })).toEqual({
			reason: '.env.local matches the secret-file pattern ".env.*"',
			label: ".env.local",
		});
	});
});
