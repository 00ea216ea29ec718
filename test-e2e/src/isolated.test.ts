import type { RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectError } from "./support/api.js";
import {
  createCompany,
  createUser,
  operatorOf,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Repeats a call until it succeeds: after a restart, the gateway reconnects within about a second. */
async function eventually<T extends { body: Record<string, unknown> }>(
  attempt: () => Promise<T>,
  withinMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const result = await attempt();
    if (result.body.status === "success" || Date.now() > deadline) return result;
    await sleep(100);
  }
}

/** Rules that need a suite of their own: short token lifetimes, and services that go away. */
describe("a suite of its own", () => {
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let company: TestCompany;
  let user: TestUser;
  const options = () => ({ gatewayUrl: suite.gatewayUrl, apiKey: company.apiKey });
  const login = () => call(company.code, "login", { ...options(), body: { login_id: user.loginName } });

  beforeAll(async () => {
    own = await startOwnSuite({
      session: { PREAUTH_TOKEN_TTL_SECONDS: "1" },
      // Long enough for a loaded machine's ordinary requests; a hung service is waited for this long,
      // by the request's deadline: each call alone could wait a minute.
      gateway: { REQUEST_DEADLINE_MS: "5000", GRPC_DEADLINE_MS: "60000" },
    });
    suite = own.suite;
    company = await createCompany({}, operatorOf(suite));
    user = await createUser(company);
  });
  afterAll(async () => {
    await own?.stop();
  });

  describe("token lifetime", () => {
    it("answers auth.token.expired with 401 for a token past its lifetime", async () => {
      const token = String((await login()).body.session_token);
      await sleep(1_500);
      const response = await call(company.code, "checkpassword", {
        ...options(),
        token,
        body: { password: user.password },
      });
      expectError(response, 401, "auth.token.expired");
      expectError(await call(company.code, "logout", { ...options(), token }), 401, "auth.token.expired");
    });
  });

  describe("a service that is down", () => {
    it("makes the gateway answer service.unavailable with 503, and the flow works again once it is back", async () => {
      await suite.children.session.kill();
      expectError(await login(), 503, "service.unavailable");
      await suite.restart("session");
      expect((await eventually(login)).body.session_state).toBe("checkpassword");
    });

    it("that hangs makes the gateway answer 503 within the request's deadline instead of hanging", async () => {
      const pid = suite.children.identity.pid;
      if (pid === undefined) throw new Error("identity is not running");
      process.kill(pid, "SIGSTOP");
      try {
        // identity stays stopped until the answer comes: only the request's deadline (5 s) can end
        // the wait, well before the call's own (a minute).
        const started = Date.now();
        expectError(await login(), 503, "service.unavailable");
        expect(Date.now() - started).toBeLessThan(30_000);
      } finally {
        process.kill(pid, "SIGCONT");
      }
      expect((await eventually(login)).body.session_state).toBe("checkpassword");
    });
  });

  describe("readiness", () => {
    const readyz = () => fetch(`${suite.gatewayUrl}/readyz`);
    const untilReady = () =>
      expect.poll(async () => (await readyz()).status, { timeout: 30_000, interval: 200 }).toBe(200);

    it("stays ready while otp is down: password logins go on, and a flow that sends a code answers 503", async () => {
      expect((await readyz()).status).toBe(200);
      const withoutPassword = await createUser(company, { password: null });
      await suite.children.otp.kill();
      try {
        expect((await readyz()).status).toBe(200);
        const credentials = await call(company.code, "checkcredentials", {
          ...options(),
          body: { login_id: user.loginName, password: user.password },
        });
        expect(credentials.body.session_state).toBe("authorized");
        expectError(
          await call(company.code, "login", { ...options(), body: { login_id: withoutPassword.loginName } }),
          503,
          "service.unavailable",
        );
      } finally {
        await suite.restart("otp");
      }
      await untilReady();
    });

    it.each(["identity", "session"] as const)(
      "reports not ready while %s, which every flow needs, is down, and ready once it is back",
      async (name) => {
        await untilReady();
        await suite.children[name].kill();
        try {
          const response = await readyz();
          expect(response.status).toBe(503);
          expect(await response.json()).toEqual({
            status: "error",
            error_code: "service.unavailable",
            error_message: expect.any(String),
          });
        } finally {
          await suite.restart(name);
        }
        // The gateway's channel reconnects within a second of the restart.
        await untilReady();
      },
    );
  });
});
