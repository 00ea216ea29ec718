import { smsLimitsOutOfTheWay, smsSettings } from "@auth/grpc-kit/client";
import { type RunningSuite, type ServiceName, serviceNames } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCompany,
  createDisclaimer,
  createUser,
  operatorOf,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";
import { lastOtp, linkToken, mailTo } from "./support/outbox.js";
import { RoundRobinProxy } from "./support/round-robin-proxy.js";
import {
  hangOrNoAnswer,
  pauseBetweenFlowsMs,
  type TimedSample,
  timedRequest,
} from "./support/timed-requests.js";

/**
 * A service down, every replica of it (issue 32, docs/operations.md, "Failures"): under a load of
 * whole flows through two gateways, each of the six services in turn has both its replicas killed
 * (SIGKILL), and stays down until every flow has shown what the outage does to it; then it is
 * started again. Each answer is counted by flow and endpoint. A flow that needs the service answers
 * 503 service.unavailable on each of its steps and never succeeds; every other flow goes on, whole,
 * with no 503 at all. The gateways stay ready unless identity or session is down, and their metrics
 * name the service that is down. Printed per service: the answers, how long the restart took, and
 * how long until every flow had succeeded again.
 */

const realStores = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

/** A request of the load with no answer in this long is aborted and counts as a hang. */
const hangMs = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The flows of the load and their endpoints; "terms" flows are of a company with a disclaimer
 * (which their users have accepted), the others of one without.
 */
const flows = {
  password: ["login", "checkpassword", "logout"],
  checkcredentials: ["checkcredentials", "logout"],
  "terms password": ["login", "checkpassword", "logout"],
  "terms checkcredentials": ["checkcredentials", "logout"],
  sms: ["login", "checkotp", "logout"],
  recovery: ["recovery/recover", "recovery/checklink", "setpassword"],
} as const;
type FlowName = keyof typeof flows;
const flowNames = Object.keys(flows) as FlowName[];
/** Every "flow endpoint" of the load. */
const endpoints = flowNames.flatMap((flow) => flows[flow].map((operation) => `${flow} ${operation}`));
const logouts = endpoints.filter((endpoint) => endpoint.endsWith(" logout"));

/**
 * What each service's loss costs, as docs/operations.md's "Failures" table states it: the endpoints
 * of the load that answer 503 while it is down; every other one goes on with no 503, but those
 * that may do either.
 */
const outages: Record<
  ServiceName,
  { title: string; refused: readonly string[]; either?: readonly string[] }
> = {
  identity: {
    title:
      "every endpoint answers 503, but logout, which goes on while the gateway keeps the API key's company (5 s)",
    refused: endpoints.filter((endpoint) => !logouts.includes(endpoint)),
    either: logouts,
  },
  session: {
    title: "every endpoint answers 503 but recovery/recover by e-mail, which starts no session",
    refused: endpoints.filter((endpoint) => endpoint !== "recovery recovery/recover"),
  },
  otp: {
    title: "the SMS login answers 503 (login, checkotp); every other endpoint goes on",
    refused: ["sms login", "sms checkotp"],
  },
  recovery: {
    title: "the recovery answers 503 (recover, checklink, setpassword); every other endpoint goes on",
    refused: ["recovery recovery/recover", "recovery recovery/checklink", "recovery setpassword"],
  },
  disclaimer: {
    title:
      "the company with a disclaimer answers 503 on login and checkcredentials; the company without goes on whole",
    refused: ["terms password login", "terms checkcredentials checkcredentials"],
  },
  audit: {
    title:
      "every endpoint of the load goes on: no login or recovery waits on the audit trail, whose events wait in the stream",
    refused: [],
  },
};

/** What one request of the load got: HTTP status and error code, or "success"; or "hang", "no answer". */
interface Sample extends TimedSample {
  flow: FlowName;
  operation: string;
}
const succeeded = (sample: Sample) => sample.answer === "200 success";

/** What one outage measured. */
interface Measured {
  service: ServiceName;
  downMs: number;
  restartMs: number;
  flowsBackMs: number;
  /** By "flow endpoint", how many of each answer. */
  answers: Record<string, Record<string, number>>;
  /** The longest a 503 took, and the longest a success took, while the service was down. */
  slowest503Ms: number;
  slowestSuccessMs: number;
}

describe.runIf(realStores)("a service down, all its replicas, under a load of whole flows", () => {
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let proxy: RoundRobinProxy;
  const companies = {} as Record<"plain" | "terms", TestCompany>;
  const samples: Sample[] = [];
  const measured: Measured[] = [];
  /** When each flow last succeeded whole, and when that flow had started. */
  const lastFlow = new Map<FlowName, { started: number; ended: number }>();
  let loadRunning = false;
  let load: Promise<unknown> | undefined;

  /** One request of the load, timed; throws on anything but success, which ends the flow. */
  async function step(
    flow: FlowName,
    operation: string,
    body: Record<string, unknown>,
    token?: string,
  ): Promise<Record<string, unknown>> {
    const company = flow.startsWith("terms") ? companies.terms : companies.plain;
    const sample: Sample = { flow, operation, start: Date.now(), end: 0, answer: "hang" };
    samples.push(sample);
    return timedRequest(
      sample,
      { gateway: proxy.url, company, operation, body, token, hangMs },
      { failed: (s) => !succeeded(s), unanswered: hangOrNoAnswer },
    );
  }

  const tokenOf = (answer: Record<string, unknown>) => String(answer.session_token);
  const terms = (flow: FlowName) => (flow.startsWith("terms") ? { accept_disclaimers: ["terms"] } : {});

  /** login, checkpassword, logout. */
  const passwordFlow = (flow: FlowName) => async (user: TestUser) => {
    const started = await step(flow, "login", { login_id: user.loginName });
    const checked = await step(
      flow,
      "checkpassword",
      { password: user.password, ...terms(flow) },
      tokenOf(started),
    );
    await step(flow, "logout", {}, tokenOf(checked));
  };
  /** checkcredentials, logout. */
  const credentialsFlow = (flow: FlowName) => async (user: TestUser) => {
    const checked = await step(flow, "checkcredentials", {
      login_id: user.loginName,
      password: user.password,
      ...terms(flow),
    });
    await step(flow, "logout", {}, tokenOf(checked));
  };
  /** login by SMS one-time password (a user without a password), checkotp, logout. */
  const smsFlow = async (user: TestUser) => {
    const started = await step("sms", "login", { login_id: user.loginName });
    const otp = lastOtp(companies.plain.id, user.phone, suite.smsOutboxFile);
    const checked = await step("sms", "checkotp", { otp }, tokenOf(started));
    await step("sms", "logout", {}, tokenOf(checked));
  };
  /** A recovery by e-mail link to a new password. */
  const recoveryFlow = async (user: TestUser) => {
    await step("recovery", "recovery/recover", {
      login_id: user.loginName,
      captcha_response: "dev-captcha-pass",
      method: "MAIL",
    });
    const link = mailTo(companies.plain.id, user.email, suite.mailOutboxFile).at(-1)?.text ?? "";
    const linked = await step("recovery", "recovery/checklink", { token: linkToken(link) });
    await step("recovery", "setpassword", { new_password: `recovered-${Date.now()}-x` }, tokenOf(linked));
  };

  /** A client of the load: its flow over and over, each time with the next of its users. */
  async function loadClient(flow: FlowName, users: TestUser[], run: (user: TestUser) => Promise<void>) {
    for (let turn = 0; loadRunning; turn += 1) {
      const started = Date.now();
      try {
        await run(users[turn % users.length] as TestUser);
        lastFlow.set(flow, { started, ended: Date.now() });
      } catch {
        // Recorded in the samples; the next turn starts a new flow.
      }
      await sleep(pauseBetweenFlowsMs);
    }
  }

  /** Until each of these flows has succeeded whole, started after `since`; how long that took. */
  async function flowsSucceedStartedAfter(flows: readonly FlowName[], since: number) {
    const deadline = Date.now() + testBudgets.testMs;
    const behind = () => flows.filter((flow) => (lastFlow.get(flow)?.started ?? 0) < since);
    while (behind().length > 0 && Date.now() < deadline) await sleep(50);
    const lastAnswers = behind().map((flow) =>
      samples
        .filter((sample) => sample.flow === flow)
        .slice(-3)
        .map((sample) => `${flow} ${sample.operation} ${sample.answer}`),
    );
    expect(behind(), `flows that did not succeed: ${JSON.stringify(lastAnswers)}`).toEqual([]);
    return Date.now() - since;
  }

  /** Until each of these flows has been answered 503, on a request started after `since`. */
  async function flowsRefusedAfter(flows: readonly FlowName[], since: number) {
    const deadline = Date.now() + testBudgets.testMs;
    const refused = (flow: FlowName) =>
      samples.some((s) => s.flow === flow && s.start >= since && s.answer === "503 service.unavailable");
    while (flows.some((flow) => !refused(flow)) && Date.now() < deadline) await sleep(50);
    expect(
      flows.filter((flow) => !refused(flow)),
      "flows never answered 503",
    ).toEqual([]);
  }

  /** Each gateway's /readyz status and what its metrics say of the service, once asked. */
  async function gatewaysSee(service: ServiceName) {
    return Promise.all(
      suite.replicas.gateway.map(async (replica) => {
        const ready = (await fetch(`${replica.url}/readyz`, { signal: AbortSignal.timeout(hangMs) })).status;
        const text = await (await fetch(replica.metricsUrl ?? "")).text();
        const serving = new RegExp(
          `^auth_gateway_service_serving\\{service="${service}"\\} (\\d)$`,
          "m",
        ).exec(text)?.[1];
        return { ready, serving: Number(serving) };
      }),
    );
  }

  /** Until every gateway has read which companies have disclaimers since `since`. */
  async function gatewaysListedDisclaimersSince(since: number) {
    const readAt = async (url: string) =>
      Number(
        /^auth_gateway_disclaimer_companies_read_timestamp_seconds (\S+)$/m.exec(
          await (await fetch(url)).text(),
        )?.[1] ?? 0,
      ) * 1000;
    const deadline = Date.now() + testBudgets.testMs;
    for (const replica of suite.replicas.gateway) {
      while ((await readAt(replica.metricsUrl ?? "")) < since) {
        if (Date.now() > deadline) throw new Error("a gateway did not read the companies with disclaimers");
        await sleep(100);
      }
    }
  }

  beforeAll(async () => {
    own = await startOwnSuite(
      {
        gateway: { DISCLAIMER_COMPANIES_REFRESH_SECONDS: "1" },
        // The load logs its few users in by SMS many times an hour.
        otp: { OTP_SENDS_PER_USER_PER_HOUR: "1000000" },
      },
      { replicas: 2, metrics: true },
    );
    suite = own.suite;
    proxy = await RoundRobinProxy.start(suite.replicas.gateway.map((replica) => replica.url ?? ""));
    const policy = {
      recovery: { order: [], disabled: [], disabledByRole: {}, linkBase: "https://app.example.com/r" },
      // A flow cut by an outage counts no failure against its users.
      captchaAfterFailures: 1_000,
      lockoutAfterFailures: 10_000,
      recoveryMessagesPerHour: 1_000,
      // Many codes an hour, some never entered (a flow cut by an outage): no limit against SMS pumping.
      sms: smsSettings({ limits: smsLimitsOutOfTheWay }),
    };
    [companies.plain, companies.terms] = await Promise.all([
      createCompany(policy, operatorOf(suite)),
      createCompany(policy, operatorOf(suite)),
    ]);
    const disclaimerCreated = Date.now();
    await createDisclaimer(companies.terms, "terms");
    await gatewaysListedDisclaimersSince(disclaimerCreated);
    // Each client turns over a few users, so that a user caught by an outage mid-flow is not the next.
    const users = (company: TestCompany, options: Parameters<typeof createUser>[1] = {}) =>
      Promise.all(Array.from({ length: 3 }, () => createUser(company, options)));
    const runs: Record<FlowName, [TestUser[], (user: TestUser) => Promise<void>]> = {
      password: [await users(companies.plain), passwordFlow("password")],
      checkcredentials: [await users(companies.plain), credentialsFlow("checkcredentials")],
      "terms password": [await users(companies.terms), passwordFlow("terms password")],
      "terms checkcredentials": [await users(companies.terms), credentialsFlow("terms checkcredentials")],
      sms: [await users(companies.plain, { password: null }), smsFlow],
      recovery: [await users(companies.plain, { password: null }), recoveryFlow],
    };
    loadRunning = true;
    const started = Date.now();
    load = Promise.all(flowNames.map((flow) => loadClient(flow, ...runs[flow])));
    await flowsSucceedStartedAfter(flowNames, started);
  });

  afterAll(async () => {
    loadRunning = false;
    await load;
    await proxy?.stop();
    await own?.stop();
    console.log(
      [
        "outages: per service, both replicas killed under load",
        ...measured.map(
          (m) =>
            `  ${m.service}: down ${m.downMs} ms (503s within ${m.slowest503Ms} ms, successes within ${m.slowestSuccessMs} ms), ` +
            `restarted in ${m.restartMs} ms, every flow back ${m.flowsBackMs} ms later; ` +
            JSON.stringify(m.answers),
        ),
      ].join("\n"),
    );
  });

  for (const service of serviceNames) {
    const { title, refused, either = [] } = outages[service];
    const goesOn = (endpoint: string) => !refused.includes(endpoint) && !either.includes(endpoint);
    const stopped = flowNames.filter((flow) =>
      flows[flow].some((operation) => refused.includes(`${flow} ${operation}`)),
    );
    const whole = flowNames.filter((flow) => !stopped.includes(flow));
    it(
      `${service} down (both replicas): ${title}`,
      async () => {
        await flowsSucceedStartedAfter(flowNames, Date.now());
        const killedAt = Date.now();
        await Promise.all(suite.replicas[service].map((replica) => replica.child.kill()));
        let restarting = 0;
        try {
          await flowsRefusedAfter(stopped, killedAt);
          await flowsSucceedStartedAfter(whole, killedAt);
          const seen = await gatewaysSee(service);
          const critical = service === "identity" || service === "session";
          expect(seen).toEqual(
            suite.replicas.gateway.map(() => ({ ready: critical ? 503 : 200, serving: 0 })),
          );
        } finally {
          restarting = Date.now();
          await suite.restart(service);
        }
        const restartedAt = Date.now();
        const flowsBackMs = await flowsSucceedStartedAfter(flowNames, restartedAt);

        // The requests made and answered while every replica was down: from the kill to the restart.
        const during = samples.filter((s) => s.start >= killedAt && s.end !== 0 && s.end < restarting);
        const answers: Measured["answers"] = {};
        for (const sample of during) {
          const endpoint = `${sample.flow} ${sample.operation}`;
          answers[endpoint] = {
            ...answers[endpoint],
            [sample.answer]: (answers[endpoint]?.[sample.answer] ?? 0) + 1,
          };
        }
        const slowest = (answer: (sample: Sample) => boolean) =>
          Math.max(0, ...during.filter(answer).map((s) => s.end - s.start));
        const result: Measured = {
          service,
          downMs: restarting - killedAt,
          restartMs: restartedAt - restarting,
          flowsBackMs,
          answers,
          slowest503Ms: slowest((s) => s.answer === "503 service.unavailable"),
          slowestSuccessMs: slowest(succeeded),
        };
        measured.push(result);
        console.log(`outages: ${JSON.stringify(result)}`);

        const answered = (which: (endpoint: string) => boolean, answer: (sample: Sample) => boolean) =>
          during
            .filter((s) => which(`${s.flow} ${s.operation}`) && answer(s))
            .map((s) => `${s.flow} ${s.operation} ${s.answer}`);
        // Nothing but success and 503, and never a hang.
        expect(
          answered(
            () => true,
            (s) => !succeeded(s) && s.answer !== "503 service.unavailable",
          ),
        ).toEqual([]);
        // What needs the service never succeeds without it...
        expect(answered((endpoint) => refused.includes(endpoint), succeeded)).toEqual([]);
        // ...and what does not need it is never refused.
        expect(answered(goesOn, (s) => !succeeded(s))).toEqual([]);
      },
      4 * testBudgets.testMs,
    );
  }
});
