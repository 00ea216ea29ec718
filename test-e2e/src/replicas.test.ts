import type { RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/api.js";
import { createCompany, createUser, operatorOf, type TestCompany } from "./support/fixtures.js";
import { lastOtp } from "./support/outbox.js";
import { RoundRobinProxy } from "./support/round-robin-proxy.js";

const realStores = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

/** Two of every process on one machine, sharing real PostgreSQL and Redis, behind one address each. */
describe.runIf(realStores)("two replicas of every process", () => {
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let proxy: RoundRobinProxy;
  let company: TestCompany;
  const post = (operation: string, body?: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, gatewayUrl: proxy.url, body, token });

  beforeAll(async () => {
    own = await startOwnSuite({}, { replicas: 2, metrics: true });
    suite = own.suite;
    proxy = await RoundRobinProxy.start(suite.replicas.gateway.map((replica) => replica.url ?? ""));
    company = await createCompany(
      { recovery: { order: [], disabled: [], disabledByRole: {}, linkBase: "https://app.example.com/r" } },
      operatorOf(suite),
    );
  });
  afterAll(async () => {
    await proxy?.stop();
    await own?.stop();
  });

  it("carry a login with password and second factor across replicas, step by step", async () => {
    const user = await createUser(company, { secondFactorRequired: true });
    const login = await post("login", { login_id: user.loginName });
    const step = await post("checkpassword", { password: user.password }, String(login.body.session_token));
    expect(step.body.session_state).toBe("checkotp");
    const done = await post(
      "checkotp",
      { otp: lastOtp(company.id, user.phone, suite.smsOutboxFile) },
      String(step.body.session_token),
    );
    expect(done.body.session_state).toBe("authorized");
    expect((await post("logout", undefined, String(done.body.session_token))).body.status).toBe("success");
    expect((await post("logout", undefined, String(done.body.session_token))).body.error_code).toBe(
      "auth.token.invalid",
    );
  });

  it("keep the captcha and lock-out counts of a login ID over all replicas", async () => {
    const user = await createUser(company);
    const flags = [];
    for (let i = 0; i < 3; i += 1) {
      flags.push(
        (await post("checkcredentials", { login_id: user.loginName, password: "wrong" })).body
          .captcha_required,
      );
    }
    expect(flags).toEqual([false, false, true]);
  });

  it("hold the rate limit of a login ID over all replicas", async () => {
    const limited = await createCompany({ rateLimitPerLoginIdPerMinute: 3 }, operatorOf(suite));
    const user = await createUser(limited);
    const outcomes = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await call(limited.code, "login", {
        apiKey: limited.apiKey,
        gatewayUrl: proxy.url,
        body: { login_id: user.loginName },
      });
      outcomes.push(response.status);
    }
    expect(outcomes).toEqual([200, 200, 200, 429]);
  });

  it("carry a recovery by question across replicas", async () => {
    const user = await createUser(company, { controlQuestion: "Q?", controlAnswer: "Answer" });
    const started = await post("recovery/recover", {
      login_id: user.loginName,
      captcha_response: "dev-captcha-pass",
      method: "QUESTION",
    });
    const answered = await post(
      "recovery/checkquestion",
      { control_answer: "answer" },
      String(started.body.session_token),
    );
    const set = await post(
      "setpassword",
      { new_password: "replicated-password-1" },
      String(answered.body.session_token),
    );
    expect(set.body).toEqual({ status: "success" });
    const login = await post("checkcredentials", {
      login_id: user.loginName,
      password: "replicated-password-1",
    });
    expect(login.body.session_state).toBe("authorized");
  });

  it("shared the work: both gateways and both replicas of each service served calls", async () => {
    const services = ["identity", "session", "otp", "disclaimer"] as const;
    const idle = async () => {
      const names = [];
      for (const name of services) {
        for (const [index, replica] of suite.replicas[name].entries()) {
          const metrics = await (await fetch(replica.metricsUrl ?? "")).text();
          if (!/auth_grpc_server_calls_total\{method="\w+",outcome="ok"\} [1-9]/.test(metrics))
            names.push(`${name} #${index + 1}`);
        }
      }
      return names;
    };
    // Round-robin skips a replica while its connection is being made again (a keepalive ping a loaded
    // machine answered late drops it), so logins go on until each replica served one, within a bound.
    let unserved: string[] = [];
    for (let logins = 1; logins <= 40; logins += 1) {
      const user = await createUser(company, { password: null });
      expect((await post("login", { login_id: user.loginName })).body.session_state).toBe("checkotp");
      if (logins < 6) continue;
      unserved = await idle();
      if (unserved.length === 0) break;
    }
    expect(proxy.served.every((count) => count > 0)).toBe(true);
    expect(unserved, "replicas that served no call").toEqual([]);
  });
});
