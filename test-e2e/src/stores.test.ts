import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type RunningSuite, startSuite } from "@auth/suite";
import { patientWithStores } from "@auth/suite/testing";
import { testBudgets } from "@auth/testing";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/api.js";
import {
  createCompany,
  createDisclaimer,
  createUser,
  operatorOf,
  type TestCompany,
} from "./support/fixtures.js";
import { lastOtp, linkToken, mailTo } from "./support/outbox.js";
import {
  type PrivatePostgres,
  type PrivateRedis,
  privateStoresMissing,
  startPrivatePostgres,
  startPrivateRedis,
} from "./support/private-stores.js";

const run = promisify(execFile);
const storesDir = fileURLToPath(new URL("../../infra/k8s/stores/", import.meta.url));
const password = () => randomBytes(18).toString("base64url");
const missing = privateStoresMissing();

/**
 * Least privilege in the stores (docs/operations.md): the scripts that compose and the Kubernetes
 * store-users Job run (infra/k8s/stores) make a role per PostgreSQL service and an ACL user per
 * Redis service on stores of this file's own; the suite then runs on them, each process logged in
 * as its own user, and no user can reach what another service owns.
 */
describe.skipIf(missing !== undefined)("each service in its stores as a user of its own", () => {
  let postgres: PrivatePostgres;
  let redis: PrivateRedis;
  let suite: RunningSuite;
  let dataDir: string;
  let company: TestCompany;
  const adminPassword = password();
  const passwords = {
    identity: password(),
    disclaimer: password(),
    audit: password(),
    session: password(),
    otp: password(),
    recovery: password(),
    gateway: password(),
  };
  const databaseUrl = (service: "identity" | "disclaimer" | "audit", database = `auth_${service}`) =>
    `postgres://auth_${service}@127.0.0.1:${postgres.port}/${database}`;

  const createRoles = () =>
    run("psql", [
      "-v",
      "ON_ERROR_STOP=1",
      "-v",
      `identity_password=${passwords.identity}`,
      "-v",
      `disclaimer_password=${passwords.disclaimer}`,
      "-v",
      `audit_password=${passwords.audit}`,
      "-q",
      "-f",
      join(storesDir, "postgres-roles.sql"),
      postgres.adminUrl,
    ]);
  const createRedisUsers = () =>
    run("sh", [join(storesDir, "redis-users.sh")], {
      env: {
        PATH: process.env.PATH,
        REDIS_NODES: `127.0.0.1:${redis.port}`,
        REDIS_ADMIN_PASSWORD: adminPassword,
        SESSION_REDIS_PASSWORD: passwords.session,
        OTP_REDIS_PASSWORD: passwords.otp,
        RECOVERY_REDIS_PASSWORD: passwords.recovery,
        GATEWAY_REDIS_PASSWORD: passwords.gateway,
      },
    });

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([
      startPrivatePostgres(),
      startPrivateRedis(["--requirepass", adminPassword]),
    ]);
    // Twice, as a re-run of the Job would: the scripts are idempotent.
    for (let pass = 0; pass < 2; pass += 1) {
      await createRoles();
      await createRedisUsers();
    }
    dataDir = mkdtempSync(join(tmpdir(), "auth-e2e-stores-"));
    const redisUser = (name: keyof typeof passwords) => ({
      REDIS_USERNAME: name,
      REDIS_PASSWORD: passwords[name],
    });
    suite = await startSuite({
      dataDir,
      databaseUrls: {
        identity: databaseUrl("identity"),
        disclaimer: databaseUrl("disclaimer"),
        audit: databaseUrl("audit"),
      },
      redisUrl: redis.url,
      logLevel: "error",
      startTimeoutMs: testBudgets.suiteStartMs,
      env: patientWithStores({
        identity: { DATABASE_PASSWORD: passwords.identity },
        disclaimer: { DATABASE_PASSWORD: passwords.disclaimer },
        audit: { DATABASE_PASSWORD: passwords.audit },
        session: redisUser("session"),
        otp: redisUser("otp"),
        recovery: redisUser("recovery"),
        gateway: redisUser("gateway"),
      }),
    });
    company = await createCompany(
      {
        recovery: {
          order: [],
          disabled: [],
          disabledByRole: {},
          linkBase: "https://app.example.com/recover",
        },
      },
      operatorOf(suite),
    );
    await createDisclaimer(company, "terms");
  });

  afterAll(async () => {
    await suite?.stop();
    await Promise.all([redis?.close(), postgres?.close()]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { gatewayUrl: suite.gatewayUrl, apiKey: company.apiKey, body, token });

  it("lets every flow work: password and disclaimers, OTP, recovery by e-mail link", async () => {
    const user = await createUser(company);
    const login = await post("login", { login_id: user.loginName });
    const authorized = await post(
      "checkpassword",
      { password: user.password, accept_disclaimers: ["terms"] },
      String(login.body.session_token),
    );
    expect(authorized.body.session_state, JSON.stringify(authorized.body)).toBe("authorized");

    const otpUser = await createUser(company, { password: null });
    const started = await post("login", { login_id: otpUser.loginName });
    const checked = await post(
      "checkotp",
      { otp: lastOtp(company.id, otpUser.phone, suite.smsOutboxFile), accept_disclaimers: ["terms"] },
      String(started.body.session_token),
    );
    expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");

    const mailed = await post("recovery/recover", {
      login_id: user.loginName,
      captcha_response: "dev-captcha-pass",
      method: "MAIL",
    });
    expect(mailed.body.verification, JSON.stringify(mailed.body)).toBe("MAIL");
    const linked = await post("recovery/checklink", {
      token: linkToken(mailTo(company.id, user.email, suite.mailOutboxFile).at(-1)?.text ?? ""),
    });
    expect(linked.body.session_state, JSON.stringify(linked.body)).toBe("recovery-setpassword");
  });

  it.each([
    ["identity", "auth_disclaimer"],
    ["identity", "auth_audit"],
    ["audit", "auth_identity"],
    ["disclaimer", "auth_audit"],
  ] as const)("keeps the role of %s out of the database %s", async (service, database) => {
    const intruder = new pg.Client({
      connectionString: databaseUrl(service, database),
      password: passwords[service],
    });
    await expect(intruder.connect()).rejects.toThrow(
      new RegExp(`permission denied for database "${database}"`),
    );
  });

  it("gives a PostgreSQL service's role its own tables and no power beyond them", async () => {
    const owner = new pg.Client({ connectionString: databaseUrl("identity"), password: passwords.identity });
    await owner.connect();
    try {
      // The service's own role owns its tables; it is no superuser and may create no role or database.
      const { rows } = await owner.query(
        "select rolsuper, rolcreaterole, rolcreatedb from pg_roles where rolname = current_user",
      );
      expect(rows).toEqual([{ rolsuper: false, rolcreaterole: false, rolcreatedb: false }]);
      await expect(owner.query("create role sneaky login")).rejects.toThrow(/permission denied/);
    } finally {
      await owner.end();
    }
  });

  it("keeps a Redis service's user to its own keys, and the default user behind the admin password", async () => {
    const session = new Redis(redis.url, {
      username: "session",
      password: passwords.session,
      lazyConnect: true,
    });
    await session.connect();
    try {
      expect(await session.keys("*").catch((error: Error) => error.message)).toMatch(/NOPERM/);
      expect(await session.get("auth:otp:anything").catch((error: Error) => error.message)).toMatch(/NOPERM/);
      expect(await session.set("auth:session:probe", "1")).toBe("OK");
      expect(await session.config("GET", "*").catch((error: Error) => error.message)).toMatch(/NOPERM/);
    } finally {
      session.disconnect();
    }
    const anonymous = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    anonymous.on("error", () => {});
    await anonymous.connect().catch(() => {});
    expect(await anonymous.get("auth:session:probe").catch((error: Error) => error.message)).toMatch(
      /NOAUTH/,
    );
    anonymous.disconnect();
  });
});

if (missing !== undefined) {
  describe("each service in its stores as a user of its own", () => {
    it.skip(`needs a private PostgreSQL 15 and redis-server: ${missing}`, () => {});
  });
}
