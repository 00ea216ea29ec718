import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@auth/runtime";
import type { RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repositoryRoot, runAuthctl } from "./run-authctl.testing.js";

/** The rows of a table authctl printed, each as its cells; the header row first. */
const tableRows = (printed: string): string[][] =>
  printed
    .split("\n")
    .filter((line) => line.startsWith("│"))
    .map((line) =>
      line
        .split("│")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

// Each authctl call is a node process of its own, a few seconds each on a loaded 2-core machine;
// a test makes up to fifteen of them.
describe("authctl", { timeout: 5 * testBudgets.testMs }, () => {
  let own: Awaited<ReturnType<typeof startOwnSuite>> | undefined;
  let suite: RunningSuite;
  let dataDir: string;
  let code: string;

  /** Runs authctl against the suite, as its operator. */
  const authctl = (args: string[], env: Record<string, string> = {}) =>
    runAuthctl(args, {
      AUTH_IDENTITY_ADDR: suite.addresses.identity,
      AUTH_SESSION_ADDR: suite.addresses.session,
      AUTH_DISCLAIMER_ADDR: suite.addresses.disclaimer,
      AUTH_AUDIT_ADDR: suite.addresses.audit,
      AUTH_ADMIN_TOKEN: suite.adminToken,
      AUTH_TLS_CA_FILE: suite.certificates.operator?.caFile,
      AUTH_TLS_CERT_FILE: suite.certificates.operator?.certFile,
      AUTH_TLS_KEY_FILE: suite.certificates.operator?.keyFile,
      ...env,
    });
  const json = async (args: string[]) => {
    const result = await authctl(["--json", ...args]);
    expect(result.stderr).toBe("");
    return JSON.parse(result.stdout);
  };

  /** A customer of the company `code` with a login name and a password, made by authctl. */
  const createUser = (loginName: string, password: string) =>
    json([
      "user",
      "create",
      code,
      "--role",
      "customer",
      "--profile",
      `P-${loginName}`,
      "--login-name",
      loginName,
      "--password",
      password,
    ]);

  // On the machine's stores when TEST_DATABASE_URL and TEST_REDIS_URL name them, else the embedded ones.
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "authctl-"));
    own = await startOwnSuite({});
    suite = own.suite;
    code = `cli${Date.now().toString(36)}`;
  });
  afterAll(async () => {
    await own?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("provisions a company, a key and a user that can then log in through the gateway", async () => {
    const policyFile = join(dataDir, "policy.json");
    writeFileSync(
      policyFile,
      JSON.stringify({ passwordRegex: "[0-9]", captcha: { provider: "CAPTCHA_PROVIDER_DEV" } }),
    );
    const company = await json(["company", "create", code, "--name", "CLI Co", "--policy-file", policyFile]);
    expect(company).toMatchObject({
      code,
      name: "CLI Co",
      policy: { passwordRegex: "[0-9]", captchaAfterFailures: 3 },
    });
    const { apiKey } = await json(["apikey", "create", code, "--label", "cli test"]);
    const user = await createUser("cleo", "password-1");
    expect(user).toMatchObject({ loginName: "cleo", status: "USER_STATUS_ACTIVE" });

    const response = await fetch(`${suite.gatewayUrl}/${code}/v2/auth/checkcredentials`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ login_id: "cleo", password: "password-1" }),
    });
    const body = (await response.json()) as { session_token: string; session_state: string };
    expect(body.session_state).toBe("authorized");

    const introspected = await json(["session", "introspect", "--", body.session_token]);
    expect(introspected).toMatchObject({
      status: "TOKEN_STATUS_ACTIVE",
      session: { profileMnemocode: "P-cleo" },
    });
    expect(await json(["session", "list", code, user.id])).toHaveLength(1);
    expect(await json(["session", "revoke-user", code, user.id])).toEqual({ revoked: 1 });
    expect((await json(["session", "introspect", "--", body.session_token])).status).toBe(
      "TOKEN_STATUS_INVALID",
    );

    // Every user's sessions at once.
    await createUser("carl", "password-2");
    const tokens = await Promise.all(
      [
        ["cleo", "password-1"],
        ["carl", "password-2"],
        ["cleo", "password-1"],
      ].map(async ([loginId, password]) => {
        const answer = await fetch(`${suite.gatewayUrl}/${code}/v2/auth/checkcredentials`, {
          method: "POST",
          headers: { "x-api-key": apiKey, "content-type": "application/json" },
          body: JSON.stringify({ login_id: loginId, password }),
        });
        return ((await answer.json()) as { session_token: string }).session_token;
      }),
    );
    expect(await json(["session", "revoke-company", code])).toEqual({ users: 2, revoked: 3 });
    for (const token of tokens) {
      expect((await json(["session", "introspect", "--", token])).status).toBe("TOKEN_STATUS_INVALID");
    }
  });

  it.each(["policy.dev.json", "policy.production.json"])(
    "bootstraps a company from examples/%s with --with-api-key, printing a key that works at once",
    async (file) => {
      const bootstrapped = `${code}-${file.split(".")[1]}`;
      const created = await json([
        "company",
        "create",
        bootstrapped,
        "--name",
        "Bootstrapped",
        "--policy-file",
        join(repositoryRoot, "examples", file),
        "--with-api-key",
      ]);
      expect(created.company).toMatchObject({ code: bootstrapped });
      const response = await fetch(`${suite.gatewayUrl}/${bootstrapped}/v2/auth/login`, {
        method: "POST",
        headers: { "x-api-key": created.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ login_id: "nobody" }),
      });
      // The key is accepted: the login ID is what is unknown.
      expect(await response.json()).toMatchObject({ error_code: "auth.loginid.notfound" });
      if (file === "policy.dev.json") {
        expect(created.company.policy.captcha).toMatchObject({ provider: "CAPTCHA_PROVIDER_DEV" });
      } else {
        // Its secrets are sealed: identity shows none back.
        expect(JSON.stringify(created.company.policy)).not.toContain("REPLACE-with");
      }
    },
  );

  it("manages keys, users, disclaimers and backup codes", async () => {
    const [first] = await json(["apikey", "list", code]);
    const rotated = await json(["apikey", "rotate", code, first.keyId, "--overlap-seconds", "0"]);
    expect(rotated.apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const user = await json(["user", "find", code, "cleo"]);
    expect(await json(["user", "update", code, user.id, "--status", "closed"])).toMatchObject({
      status: "USER_STATUS_CLOSED",
    });
    expect((await json(["backupcodes", "generate", code, user.id])).backupCodes).toHaveLength(10);
    expect(await json(["backupcodes", "count", code, user.id])).toEqual({ remaining: 10 });
    expect(await json(["totp", "remove", code, user.id])).toEqual({ removed: false });
    await json([
      "disclaimer",
      "create",
      code,
      "terms",
      "--title",
      "Terms",
      "--link",
      "https://example.com/t",
    ]);
    expect(
      await json([
        "disclaimer",
        "publish",
        code,
        "terms",
        "--title",
        "Terms 2",
        "--link",
        "https://example.com/t2",
      ]),
    ).toMatchObject({
      version: 2,
    });
    expect(await json(["disclaimer", "list", code])).toEqual([
      expect.objectContaining({ code: "terms", version: 2, active: true }),
    ]);
  });

  it("shows a user's authenticators, as identity computes them, in JSON and in text", async () => {
    const user = await json([
      "user",
      "create",
      code,
      "--role",
      "customer",
      "--profile",
      "P-dana",
      "--login-name",
      "dana",
      "--phone",
      "+12015550111",
      "--password",
      "password-3",
      "--second-factor",
    ]);
    expect(user.authenticators).toEqual({
      secondFactors: ["SECOND_FACTOR_KIND_SMS"],
      secondFactorRequired: true,
      minPasswordLength: 8,
    });
    const [header, row] = tableRows((await authctl(["user", "get", code, user.id])).stdout);
    expect(header?.slice(-3)).toEqual(["second factor", "min password", "external id"]);
    expect(row?.slice(-3)).toEqual(["sms (required)", "8", ""]);
  });

  it("sets an OpenID Connect slot's trust in the provider's multi-factor logins and its max_age by options, and refuses them for plain OAuth 2.0", async () => {
    const settingsFile = join(dataDir, "oidc-slot.json");
    writeFileSync(
      settingsFile,
      JSON.stringify({
        slot: 2,
        kind: "PROVIDER_KIND_OIDC",
        issuer: "https://sso.example.com",
        clientId: "cli-public",
        redirectUris: ["https://app.example.com/cb"],
      }),
    );
    const slot = await json([
      "oauth",
      "set",
      code,
      "--settings-file",
      settingsFile,
      "--trusts-provider-mfa",
      "--mfa-acr-values",
      "phr,urn:example:mfa",
      "--max-age-seconds",
      "600",
    ]);
    expect(slot).toMatchObject({
      slot: 2,
      trustsProviderMfa: true,
      mfaAcrValues: ["phr", "urn:example:mfa"],
      maxAgeSeconds: 600,
      publicClient: true,
    });
    // The slot's row says what decides how its logins count.
    expect(tableRows((await authctl(["oauth", "list", code])).stdout)[1]).toEqual([
      "2",
      "Provider 2",
      "https://sso.example.com",
      "cli-public",
      "public client; trusts provider MFA (acr phr, urn:example:mfa); max_age 600 s",
    ]);
    // --no-trusts-provider-mfa over a file that trusts; the file sets neither acr values nor max_age.
    writeFileSync(
      settingsFile,
      JSON.stringify({ ...JSON.parse(readFileSync(settingsFile, "utf8")), trustsProviderMfa: true }),
    );
    const untrusting = await authctl([
      "oauth",
      "set",
      code,
      "--settings-file",
      settingsFile,
      "--no-trusts-provider-mfa",
    ]);
    expect(tableRows(untrusting.stdout)[1]?.at(-1)).toBe("public client");
    const plainFile = join(dataDir, "oauth2-slot.json");
    writeFileSync(
      plainFile,
      JSON.stringify({
        slot: 3,
        kind: "PROVIDER_KIND_OAUTH2",
        tokenEndpoint: "https://x.example.com/token",
        userinfoEndpoint: "https://x.example.com/user",
        clientId: "cli",
        clientSecret: "secret",
        redirectUris: ["https://app.example.com/cb"],
      }),
    );
    const refused = await authctl([
      "oauth",
      "set",
      code,
      "--settings-file",
      plainFile,
      "--max-age-seconds",
      "60",
    ]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/request.validation.failed: .*maxAgeSeconds: is for OpenID Connect only/);
  });

  it("sets a company's relying party for passkeys, keeping the rest of its policy, and turns it off", async () => {
    const set = ["company", "passkeys", code, "--rp-id", "localhost", "--origin", "http://localhost:8081"];
    expect(await json([...set, "--origin", "http://login.localhost:8081", "--allow-passwordless"])).toEqual({
      rpId: "localhost",
      origins: ["http://localhost:8081", "http://login.localhost:8081"],
      allowPasswordless: true,
    });
    expect((await authctl(set)).stdout).toBe("passkeys: RP ID localhost; origins http://localhost:8081\n");
    const company = await json(["company", "get", code]);
    expect(company.policy).toMatchObject({
      passwordRegex: "[0-9]",
      passkeys: { rpId: "localhost", origins: ["http://localhost:8081"] },
    });
    const refused = await authctl([
      "company",
      "passkeys",
      code,
      "--rp-id",
      "192.0.2.1",
      "--origin",
      "https://192.0.2.1",
    ]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(
      /request.validation.failed: .*passkeys.rpId: must be a lower-case host name/,
    );
    expect((await authctl(["company", "passkeys", code])).stderr).toMatch(/--rp-id .* or --off/);
    expect((await authctl(["company", "passkeys", code, "--off"])).stdout).toBe("passkeys: off\n");
    expect((await json(["company", "get", code])).policy.passkeys).toBeUndefined();
  });

  it("lists and removes a user's passkeys by the company and the user", async () => {
    const user = await json(["user", "find", code, "cleo"]);
    const ofUser = ["--company", code, "--user", user.id];
    expect(await json(["passkeys", "list", ...ofUser])).toEqual([]);
    expect((await authctl(["passkeys", "list", ...ofUser])).stdout).toBe("no passkeys\n");
    const passkey = ["--passkey", "00000000-0000-4000-8000-000000000000"];
    expect(await json(["passkeys", "remove", ...ofUser, ...passkey])).toEqual({ removed: false });
    expect((await authctl(["passkeys", "remove", ...ofUser])).stderr).toMatch(/--passkey/);
  });

  // The lists only read, and each call is a process of its own: run together.
  describe.concurrent("every list", () => {
    let carl: { id: string };
    beforeAll(async () => {
      carl = await json(["user", "find", code, "carl"]);
      // A session of carl's, and his acceptance of the company's terms (published by the test before).
      const [{ apiKey }] = [await json(["apikey", "create", code, "--label", "lists"])];
      const login = await fetch(`${suite.gatewayUrl}/${code}/v2/auth/checkcredentials`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "content-type": "application/json" },
        body: JSON.stringify({ login_id: "carl", password: "password-2", accept_disclaimers: ["terms"] }),
      });
      expect(await login.json()).toMatchObject({ session_state: "authorized" });
    });

    it.each([
      [
        ["company", "list"],
        ["code", "name", "status", "id"],
      ],
      [
        ["apikey", "list", "<code>"],
        ["key id", "state", "label"],
      ],
      [
        ["user", "list", "<code>"],
        ["id", "login ID", "role", "status", "second factor", "min password", "external id"],
      ],
      [
        ["disclaimer", "list", "<code>"],
        ["code", "version", "state", "title", "link"],
      ],
      [
        ["disclaimer", "acceptances", "<code>"],
        ["accepted", "code", "version", "user", "address"],
      ],
      [
        ["oauth", "list", "<code>"],
        ["slot", "name", "issuer or token endpoint", "client id", "traits"],
      ],
      [
        ["session", "list", "<code>", "<carl>"],
        ["session", "state", "started", "last seen", "expires", "address", "user agent"],
      ],
    ])(
      "%j prints a table with a header row and a row for each of the --json array's items",
      async (command, headers) => {
        const args = command.map((arg) => (arg === "<code>" ? code : arg === "<carl>" ? carl.id : arg));
        const text = await authctl(args);
        expect(text.stderr).toBe("");
        const [header, ...rows] = tableRows(text.stdout);
        expect(header).toEqual(headers);
        const items = await json(args);
        expect(Array.isArray(items)).toBe(true);
        expect(items.length).toBeGreaterThan(0);
        expect(rows).toHaveLength(items.length);
      },
    );
  });

  describe.concurrent("a service that cannot be reached", () => {
    it("is one line naming the service, its address and the environment variable that set it", async () => {
      const address = `127.0.0.1:${await freePort()}`;
      const result = await authctl(["company", "list"], { AUTH_IDENTITY_ADDR: address });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `authctl: cannot reach identity at ${address} (the address of AUTH_IDENTITY_ADDR)\n`,
      );
    });

    it("names the option when the address came from it, and the service the command reached last", async () => {
      const address = `127.0.0.1:${await freePort()}`;
      const result = await authctl(["--session", address, "session", "list", code, "nobody"]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toBe(`authctl: cannot reach session at ${address} (the address of --session)\n`);
    });

    it("tells a service that took the connection but did not answer within --deadline", async () => {
      const silentPeer = createServer(() => {});
      await new Promise<void>((resolve) => silentPeer.listen(0, "127.0.0.1", resolve));
      const address = `127.0.0.1:${(silentPeer.address() as AddressInfo).port}`;
      try {
        const result = await authctl(["--deadline", "500", "company", "list"], {
          AUTH_IDENTITY_ADDR: address,
        });
        expect(result.exitCode).toBe(1);
        expect(result.stderr).toBe(
          `authctl: no answer from identity at ${address} within 500 ms (the address of AUTH_IDENTITY_ADDR; --deadline sets the wait)\n`,
        );
      } finally {
        silentPeer.close();
      }
    });
  });

  describe("user import", () => {
    // Known vectors (PHP's manual; RFC 7914's PBKDF2-HMAC-SHA256 in Django's form).
    const bcrypt = "$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a";
    const django =
      "pbkdf2_sha256$80000$NaCl$TdzY9guYviGDDO5e8icB+WQaRBjQTAQUrv8Ih2s0q1ah1CWhIlgzVJrbhBtRybMXaicr3ruh0HhHj2Kzl/M8jQ==";
    const fileOf = (name: string, text: string) => {
      const file = join(dataDir, name);
      writeFileSync(file, text);
      return file;
    };
    const jsonl = (prefix: string) =>
      [
        {
          external_id: `${prefix}-1`,
          role: "customer",
          profile_mnemocode: `${prefix}-P1`,
          login_name: `${prefix}-ann`,
          password_hash: bcrypt,
        },
        {
          external_id: `${prefix}-2`,
          role: "customer",
          profile_mnemocode: `${prefix}-P2`,
          email: `${prefix}@example.com`,
          password_hash: django,
          password_change_required: true,
        },
        {
          external_id: `${prefix}-3`,
          role: "customer",
          profile_mnemocode: `${prefix}-P3`,
          login_name: `${prefix}-bob`,
          password_hash: "{SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=",
        },
        "",
        {
          external_id: `${prefix}-4`,
          role: "customer",
          profile_mnemocode: `${prefix}-P4`,
          login_name: `${prefix}-eve`,
          password: "password-1",
          status: "restricted",
        },
      ]
        .map((line) => (line === "" ? "" : JSON.stringify(line)))
        .concat("{not json", "")
        .join("\n");

    it("imports JSON Lines: a summary of created, skipped and failed, each failed line with its number and reason, exit code 1", async () => {
      await authctl(["company", "create", code, "--name", "Imports"]);
      const file = fileOf("users.jsonl", jsonl("j"));
      const report = join(dataDir, "report.jsonl");
      const result = await authctl(["user", "import", code, file, "--report", report]);
      expect(result.exitCode).toBe(1);
      expect(result.stdout.trim().split("\n")).toEqual([
        "created: 3",
        "skipped: 0",
        "failed: 2",
        "line 3 (j-3): request.validation.failed: password_hash: unknown format",
        "line 6: request.validation.failed: not a JSON object",
      ]);
      expect(
        readFileSync(report, "utf8")
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line).line),
      ).toEqual([3, 6]);
      const users = await json(["user", "list", code]);
      expect(
        users
          .filter((user: { externalId?: string }) => user.externalId?.startsWith("j-"))
          .map((user: { externalId: string; hasPassword: boolean }) => [user.externalId, user.hasPassword])
          .sort(),
      ).toEqual([
        ["j-1", true],
        ["j-2", true],
        ["j-4", true],
      ]);
    });

    it("is idempotent: a re-run skips every user it created, and tells its progress in plain lines off a terminal", async () => {
      const file = fileOf("again.jsonl", jsonl("j"));
      const result = await authctl(["--json", "user", "import", code, file]);
      expect(JSON.parse(result.stdout)).toMatchObject({ created: 0, skipped: 3, failed: 2 });
      // Not a terminal: a plain line of progress per batch.
      expect(result.stderr).toBe("0 created, 3 skipped, 2 failed\n");
    });

    it("imports CSV with a header row naming the fields, the format from the extension or --format", async () => {
      const csv = [
        "external_id,role,profile_mnemocode,login_name,password_hash,second_factor_required",
        `c-1,customer,c-P1,c-ann,${bcrypt},false`,
        `c-2,customer,c-P2,c-bob,"${django}",true`,
        "c-3,customer,c-P3,c-eve,$1$saltsalt$qjXMvbEw8oaL.CzflDugX/,",
      ].join("\n");
      const first = await authctl(["user", "import", code, fileOf("users.csv", csv)]);
      expect(first.stdout.trim().split("\n")).toEqual([
        "created: 2",
        "skipped: 0",
        "failed: 1",
        "line 4 (c-3): request.validation.failed: password_hash: unknown format",
      ]);
      const again = await authctl(["user", "import", code, fileOf("users.txt", csv), "--format", "csv"]);
      expect(again.stdout).toMatch(/^created: 0\nskipped: 2\nfailed: 1\n/);
      const unknown = await authctl(["user", "import", code, fileOf("users.txt", csv)]);
      expect(unknown.stderr).toMatch(/--format: jsonl or csv/);
    });
  });

  it("refuses to work without the admin token, with a clear line", async () => {
    const result = await authctl(["company", "list"], { AUTH_ADMIN_TOKEN: "x".repeat(40) });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^authctl: admin.unauthenticated: /);
  });

  it("names bad input and the field", async () => {
    const result = await authctl(["user", "create", code, "--role", "r", "--profile", "P", "--phone", "12"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/request.validation.failed: .*phone/);
    const unknown = await authctl(["user", "get", "no-such-company", "00000000-0000-4000-8000-000000000000"]);
    expect(unknown.stderr).toMatch(/resource.notfound/);
  });
});
