import { readFileSync } from "node:fs";
import type { RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { promtoolCheck, promtoolInstalled, testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/api.js";
import { eventRecorded } from "./support/events.js";
import {
  createCompany,
  createDisclaimer,
  createUser,
  generateBackupCodes,
  operatorOf,
  type TestCompany,
} from "./support/fixtures.js";
import { OtlpReceiver, type ReceivedSpan } from "./support/otlp-receiver.js";
import { lastOtp } from "./support/outbox.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const serverKind = 2;

/**
 * Whether the text holds the secret whole, not as a run inside a longer one: a 6-digit OTP is found
 * by chance inside the spans' 19-digit nanosecond timestamps and hex ids, as a CI run found.
 */
function holds(text: string, secret: string): boolean {
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![0-9A-Za-z])${escaped}(?![0-9A-Za-z])`).test(text);
}

/**
 * The suite with tracing exported to a receiver on loopback, Prometheus metrics from every
 * process, and every log line kept. On real PostgreSQL and Redis (as in CI) the traces also hold
 * the store spans.
 */
describe("observability", () => {
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let receiver: OtlpReceiver;
  let company: TestCompany;
  const logs: Array<{ process: string; line: string }> = [];
  const post = (operation: string, body?: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, gatewayUrl: suite.gatewayUrl, body, token });

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    own = await startOwnSuite(
      { otp: { OTP_RESEND_COOLDOWN_SECONDS: "1" } },
      {
        metrics: true,
        logLevel: "info",
        commonEnv: {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          OTEL_BSP_SCHEDULE_DELAY: "100",
          OTEL_METRICS_EXPORTER: "none",
          OTEL_LOGS_EXPORTER: "none",
        },
        onLine: (process, line) => logs.push({ process, line }),
      },
    );
    suite = own.suite;
    company = await createCompany({}, operatorOf(suite));
  });
  afterAll(async () => {
    await own?.stop();
    await receiver?.stop();
  });

  /**
   * The spans of the trace that the gateway's request for an operation started, once it is
   * `complete`: each process exports its own spans when it will, so the test waits for them.
   */
  async function traceOf(
    operation: string,
    complete: (spans: ReceivedSpan[]) => boolean = () => true,
  ): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + testBudgets.testMs / 2;
    for (;;) {
      const root = receiver.spans.find(
        (span) =>
          span.service === "gateway" && span.kind === serverKind && span.name.endsWith(`/${operation}`),
      );
      const spans = root ? receiver.spans.filter((span) => span.traceId === root.traceId) : [];
      if (root && complete(spans)) return spans;
      if (Date.now() > deadline) {
        throw new Error(
          `no whole trace of ${operation}; spans: ${receiver.spans.map((s) => `${s.service}:${s.name}`).join(", ")}`,
        );
      }
      await sleep(100);
    }
  }

  it("makes one login request one trace across the gateway, the services it called and their stores", async () => {
    // A company with a disclaimer: its login asks the disclaimer service too (docs/decisions.md,
    // "Disclaimers while their service is down").
    const traced = await createCompany({}, operatorOf(suite));
    await createDisclaimer(traced, "terms");
    const user = await createUser(traced);
    const response = await call(traced.code, "login", {
      apiKey: traced.apiKey,
      gatewayUrl: suite.gatewayUrl,
      body: { login_id: user.loginName },
    });
    expect(response.body.session_state).toBe("checkpassword");
    const store = (span: ReceivedSpan) => span.attributes["db.system.name"] ?? span.attributes["db.system"];
    const spans = await traceOf("login", (trace) =>
      ["identity", "session", "disclaimer"].every(
        (service) =>
          trace.some((span) => span.service === service && span.kind === serverKind) &&
          (!own.realStores ||
            service === "session" ||
            trace.some((span) => span.service === service && store(span))),
      ),
    );
    const services = new Set(spans.map((span) => span.service));
    expect([...services].sort()).toEqual(
      expect.arrayContaining(["disclaimer", "gateway", "identity", "session"]),
    );
    for (const service of ["identity", "session", "disclaimer"]) {
      const served = spans.filter((span) => span.service === service && span.kind === serverKind);
      expect(served.length, `${service} gRPC server spans`).toBeGreaterThan(0);
      // Each service span hangs off a span of the same trace: the context came through gRPC metadata.
      for (const span of served)
        expect(spans.some((parent) => parent.spanId === span.parentSpanId)).toBe(true);
    }
    if (own.realStores) {
      expect(spans.some((span) => span.service === "identity" && store(span) === "postgresql")).toBe(true);
      expect(spans.some((span) => span.service === "disclaimer" && store(span) === "postgresql")).toBe(true);
      expect(spans.some((span) => span.service === "session" && store(span) === "redis")).toBe(true);
    }
  });

  it("serves Prometheus metrics from every process", async () => {
    for (const [process, url] of Object.entries(suite.metricsUrls)) {
      const response = await fetch(url);
      expect(response.headers.get("content-type"), process).toMatch(/^text\/plain/);
      const text = await response.text();
      expect(text, process).toContain("process_resident_memory_bytes");
      if (process !== "gateway" && process !== "recovery" && process !== "otp" && process !== "audit") {
        expect(text, process).toMatch(/auth_grpc_server_calls_total\{method="\w+",outcome="ok"\} \d+/);
      }
    }
    // The audit service serves no call here: it counts the events it reads from the stream.
    const auditRead = /auth_audit_events_read_total\{outcome="stored"\} [1-9]/;
    for (const started = Date.now(); ; ) {
      const audit = await (await fetch(suite.metricsUrls.audit ?? "")).text();
      if (auditRead.test(audit)) break;
      expect(Date.now() - started, "the audit service counted no event stored").toBeLessThan(60_000);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const gateway = await (await fetch(suite.metricsUrls.gateway ?? "")).text();
    expect(gateway).toMatch(/auth_http_requests_total\{endpoint="login",status="200",error_code=""\} \d+/);
    expect(gateway).toMatch(/auth_http_request_duration_seconds_bucket\{le="0.5",endpoint="login"\} \d+/);
    expect(gateway).toMatch(
      /auth_grpc_client_calls_total\{service="identity",method="findUser",outcome="ok"\} \d+/,
    );
    await post("login", { login_id: "nobody" });
    const after = await (await fetch(suite.metricsUrls.gateway ?? "")).text();
    expect(after).toMatch(
      /auth_http_requests_total\{endpoint="login",status="404",error_code="auth.loginid.notfound"\} 1/,
    );
  });

  it.skipIf(!promtoolInstalled())(
    "serves from every process metrics whose names and types Prometheus's promtool accepts",
    async () => {
      for (const [process, url] of Object.entries(suite.metricsUrls)) {
        const text = await (await fetch(url)).text();
        expect(promtoolCheck(["metrics"], text), process).toBe("");
      }
    },
  );

  it("records a login as a security event that carries the trace id of the request that made it", async () => {
    const user = await createUser(company);
    const login = await post("login", { login_id: user.loginName });
    const authorized = await post(
      "checkpassword",
      { password: user.password },
      String(login.body.session_token),
    );
    expect(authorized.body.session_state).toBe("authorized");
    const event = await eventRecorded(
      suite.eventsFile,
      (recorded) => recorded.type === "auth.login.succeeded" && recorded.userid === user.id,
    );
    expect(event).toMatchObject({
      source: "auth-suite/session",
      companyid: company.id,
      outcome: "OUTCOME_SUCCEEDED",
    });
    expect(event.clientaddress).toBe("127.0.0.1");
    const spans = await traceOf("checkpassword", (trace) =>
      trace.some((span) => span.traceId === event.traceid),
    );
    expect(spans.some((span) => span.traceId === event.traceid && span.service === "gateway")).toBe(true);
  });

  it("counts the OTPs the otp service sends", async () => {
    const user = await createUser(company, { password: null });
    await post("login", { login_id: user.loginName });
    const otp = await (await fetch(suite.metricsUrls.otp ?? "")).text();
    expect(otp).toMatch(/auth_otps_sent_total\{purpose="login"\} [1-9]/);
  });

  it("never puts a password, OTP, answer, backup code, token, API key, login ID or query string in a log line, a span or a security event", async () => {
    const withTerms = await createCompany(
      { recovery: { order: [], disabled: [], disabledByRole: {}, linkBase: "https://app.example.com/r" } },
      operatorOf(suite),
    );
    await createDisclaimer(withTerms, "terms");
    const secrets: string[] = [withTerms.apiKey];
    const target = { apiKey: withTerms.apiKey, gatewayUrl: suite.gatewayUrl };
    const send = async (operation: string, body?: Record<string, unknown>, token?: string) => {
      const response = await call(withTerms.code, operation, { ...target, body, token });
      if (typeof response.body.session_token === "string") secrets.push(response.body.session_token);
      return response;
    };
    const password = "Known-Secret-Password-1";
    const answer = "Known Secret Answer";
    const user = await createUser(withTerms, {
      password,
      secondFactorRequired: true,
      controlQuestion: "Q?",
      controlAnswer: answer,
    });
    const [backupCode = ""] = await generateBackupCodes(withTerms, user);
    secrets.push(password, answer, backupCode, user.loginName, user.email, user.phone);
    // A client that puts a login ID in the query string: the span says there was a query, no more.
    const queryLoginId = "query-string-login-id";
    secrets.push(queryLoginId);
    await fetch(`${suite.gatewayUrl}/${withTerms.code}/v2/auth/login?login_id=${queryLoginId}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": withTerms.apiKey },
      body: JSON.stringify({ login_id: queryLoginId }),
    });

    const login = await send("login", { login_id: user.loginName });
    await send("checkpassword", { password: "Wrong-Known-Secret-9" }, String(login.body.session_token));
    secrets.push("Wrong-Known-Secret-9");
    const step = await send(
      "checkpassword",
      { password, accept_disclaimers: ["terms"] },
      String(login.body.session_token),
    );
    const otp = lastOtp(withTerms.id, user.phone, suite.smsOutboxFile);
    secrets.push(otp);
    await send("checkotp", { otp }, String(step.body.session_token));
    const again = await send("checkcredentials", { login_id: user.loginName, password });
    await send("checkotp", { backup_code: backupCode }, String(again.body.session_token));
    const recovery = await send("recovery/recover", {
      login_id: user.email,
      captcha_response: "dev-captcha-pass",
      method: "QUESTION",
    });
    const answered = await send(
      "recovery/checkquestion",
      { control_answer: answer },
      String(recovery.body.session_token),
    );
    const newPassword = "Known-New-Password-2";
    secrets.push(newPassword);
    await send("setpassword", { new_password: newPassword }, String(answered.body.session_token));
    // Once the last request's trace is in, so are the log lines and spans of all before it; once
    // its event is, so are the events of all before it from identity (each relay keeps its order).
    await traceOf("setpassword");
    await eventRecorded(
      suite.eventsFile,
      (event) => event.type === "auth.password.changed" && event.userid === user.id,
    );

    // The dev outbox stands in for the SMS and e-mail providers: its lines carry codes by design.
    const logText = logs
      .filter((entry) => !entry.line.startsWith("[dev "))
      .map((entry) => entry.line)
      .join("\n");
    const spanText = receiver.bodies.join("\n");
    const eventText = readFileSync(suite.eventsFile, "utf8");
    expect(logText.length).toBeGreaterThan(0);
    expect(spanText.length).toBeGreaterThan(0);
    expect(eventText.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(holds(logText, secret), `a log line holds ${secret}`).toBe(false);
      expect(holds(spanText, secret), `a span holds ${secret}`).toBe(false);
      expect(holds(eventText, secret), `a security event holds ${secret}`).toBe(false);
    }
  });
});
