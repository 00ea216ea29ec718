import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { TestOAuth2Provider } from "@auth/identity/fixtures";
import type { RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call, expectError, expectSuccess } from "./support/api.js";
import {
  createCompany,
  createDisclaimer,
  createUser,
  linkOAuthIdentity,
  type Operator,
  operatorOf,
  setOAuthProvider,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";
import { recoverToSetpassword, startLogin } from "./support/flows.js";
import { redirectUri } from "./support/oidc-provider.js";
import { notificationsTo } from "./support/outbox.js";

/**
 * The Idempotency-Key rules (docs/decisions.md, "Idempotency-Key"): setpassword (both kinds),
 * acceptdisclaimers and logout take the header; a retry with the same key, token and body gets the
 * first answer, or finishes the first's change without making it twice; the same key with another
 * body is refused; and of parallel setpassword calls with one token exactly one changes the password.
 */

const question = { controlQuestion: "Name of your first pet?", controlAnswer: "Rex" };
const plainSlot = 2;

interface Target {
  company: TestCompany;
  gatewayUrl?: string;
}

function post(target: Target, operation: string, token: string, body: unknown, key?: string) {
  return call(target.company.code, operation, {
    apiKey: target.company.apiKey,
    gatewayUrl: target.gatewayUrl,
    token,
    body,
    headers: key === undefined ? {} : { "Idempotency-Key": key },
  });
}

/** A user whose password must be changed, and a session in state setpassword. */
async function forcedChange(target: Target): Promise<{ user: TestUser; token: string }> {
  const user = await createUser(target.company, {
    password: "initial-password-1",
    passwordChangeRequired: true,
  });
  const response = await call(target.company.code, "checkcredentials", {
    apiKey: target.company.apiKey,
    gatewayUrl: target.gatewayUrl,
    body: { login_id: user.loginName, password: user.password },
  });
  expect(response.body.session_state, JSON.stringify(response.body)).toBe("setpassword");
  return { user, token: String(response.body.session_token) };
}

/** A user with a control question, and a recovery session in state recovery-setpassword. */
async function recovery(target: Target): Promise<{ user: TestUser; token: string }> {
  const user = await createUser(target.company, { password: "initial-password-1", ...question });
  const token = await recoverToSetpassword(
    target.company,
    user.loginName,
    question.controlAnswer,
    target.gatewayUrl,
  );
  return { user, token };
}

/** A company with a disclaimer to accept and the provider in OAuth slot `plainSlot`. */
async function companyWithTerms(provider: TestOAuth2Provider, operator?: Operator): Promise<TestCompany> {
  const company = await createCompany({}, operator);
  await setOAuthProvider(company, provider.slotSettings(plainSlot, [redirectUri]));
  await createDisclaimer(company, "terms");
  return company;
}

/** An OAuth login that owes the company's disclaimers: a session in state acceptdisclaimers. */
async function owingDisclaimers(target: Target, provider: TestOAuth2Provider): Promise<string> {
  const user = await createUser(target.company);
  const account = Math.floor(Math.random() * 1e9);
  await linkOAuthIdentity(target.company, user, plainSlot, String(account));
  const response = await call(target.company.code, "oauth", {
    apiKey: target.company.apiKey,
    gatewayUrl: target.gatewayUrl,
    body: {
      provider_id: plainSlot,
      code: provider.issueCode(account, redirectUri),
      redirect_uri: redirectUri,
    },
  });
  expect(response.body.session_state, JSON.stringify(response.body)).toBe("acceptdisclaimers");
  return String(response.body.session_token);
}

/** Which of the passwords logs the user in (checkcredentials). */
async function workingPasswords(target: Target, user: TestUser, passwords: string[]): Promise<string[]> {
  const working: string[] = [];
  for (const password of passwords) {
    const response = await call(target.company.code, "checkcredentials", {
      apiKey: target.company.apiKey,
      gatewayUrl: target.gatewayUrl,
      body: { login_id: user.loginName, password, captcha_response: "dev-captcha-pass" },
    });
    if (response.body.status === "success") working.push(password);
  }
  return working;
}

/** Sends a request again while it answers 503: a restarted process is reached again within about a second. */
async function untilServed(
  send: () => Promise<ApiResponse>,
): Promise<{ answer: ApiResponse; tries: number }> {
  const until = Date.now() + 30_000;
  for (let tries = 1; ; tries += 1) {
    const answer = await send();
    if (answer.status !== 503 || Date.now() > until) return { answer, tries };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function expectReplayOf(replayed: ApiResponse, first: ApiResponse) {
  expect(replayed.status).toBe(first.status);
  expect(replayed.body).toEqual(first.body);
  expect(replayed.headers.get("idempotent-replayed")).toBe("true");
}

describe("Idempotency-Key", () => {
  let company: TestCompany;
  /** A company with a disclaimer to accept, and an OAuth provider. */
  let withTerms: TestCompany;
  let provider: TestOAuth2Provider;
  const shared = (): Target => ({ company });

  beforeAll(async () => {
    provider = await TestOAuth2Provider.start();
    company = await createCompany();
    withTerms = await companyWithTerms(provider);
  });
  afterAll(async () => {
    await provider?.stop();
  });

  describe("a retry with the same key gets the original answer", () => {
    it("on setpassword in state setpassword: the same new token, which works", async () => {
      const { token } = await forcedChange(shared());
      const key = randomUUID();
      let started = Date.now();
      const first = await post(shared(), "setpassword", token, { new_password: "changed-password-2" }, key);
      const firstMs = Date.now() - started;
      expectSuccess(first, ["session_token", "session_state", "profile_mnemocode"]);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      started = Date.now();
      const replayed = await post(
        shared(),
        "setpassword",
        token,
        { new_password: "changed-password-2" },
        key,
      );
      console.log(`setpassword: first answer in ${firstMs} ms, its replay in ${Date.now() - started} ms`);
      expectReplayOf(replayed, first);
      expectReplayOf(
        await post(shared(), "setpassword", token, { new_password: "changed-password-2" }, key),
        first,
      );
      // Without the key the token is spent, as ever.
      expectError(
        await post(shared(), "setpassword", token, { new_password: "changed-password-2" }),
        401,
        "auth.token.invalid",
      );
      expectSuccess(await post(shared(), "logout", String(first.body.session_token), {}), []);
    });

    it("on setpassword in state recovery-setpassword", async () => {
      const { user, token } = await recovery(shared());
      const key = randomUUID();
      const first = await post(shared(), "setpassword", token, { new_password: "recovered-password-2" }, key);
      expectSuccess(first, []);
      expectReplayOf(
        await post(shared(), "setpassword", token, { new_password: "recovered-password-2" }, key),
        first,
      );
      expect(await workingPasswords(shared(), user, ["recovered-password-2", "initial-password-1"])).toEqual([
        "recovered-password-2",
      ]);
    });

    it("on acceptdisclaimers", async () => {
      const terms = { company: withTerms };
      const token = await owingDisclaimers(terms, provider);
      const key = randomUUID();
      const first = await post(terms, "acceptdisclaimers", token, { accept_disclaimers: ["terms"] }, key);
      expectSuccess(first, ["session_token", "session_state", "profile_mnemocode"]);
      expectReplayOf(
        await post(terms, "acceptdisclaimers", token, { accept_disclaimers: ["terms"] }, key),
        first,
      );
      expectError(
        await post(terms, "acceptdisclaimers", token, { accept_disclaimers: ["terms"] }),
        401,
        "auth.token.invalid",
      );
    });

    it("on logout", async () => {
      const token = await startLogin(company, (await createUser(company)).loginName);
      const key = randomUUID();
      const first = await post(shared(), "logout", token, {}, key);
      expectSuccess(first, []);
      expectReplayOf(await post(shared(), "logout", token, {}, key), first);
      expectError(await post(shared(), "logout", token, {}), 401, "auth.token.invalid");
    });

    it("on logout, never for a token of another company, which stays alive", async () => {
      const token = await startLogin(company, (await createUser(company)).loginName);
      const key = randomUUID();
      expectError(await post({ company: withTerms }, "logout", token, {}, key), 401, "auth.token.invalid");
      // Nor is the other company's answer the token's company's: the same key logs out there.
      const own = await post(shared(), "logout", token, {}, key);
      expectSuccess(own, []);
      expect(own.headers.get("idempotent-replayed")).toBeNull();
    });

    it("when the first answer was a refusal: a weak password's 422 again, and the session may try another key", async () => {
      const { token } = await forcedChange(shared());
      const key = randomUUID();
      const first = await post(shared(), "setpassword", token, { new_password: "short" }, key);
      expectError(first, 422, "request.validation.failed", ["password_regex_description"]);
      expectReplayOf(await post(shared(), "setpassword", token, { new_password: "short" }, key), first);
      const another = await post(
        shared(),
        "setpassword",
        token,
        { new_password: "changed-password-2" },
        randomUUID(),
      );
      expectSuccess(another, ["session_token", "session_state", "profile_mnemocode"]);
    });

    it("while the first is still under way: the second waits for its answer", async () => {
      const { token } = await forcedChange(shared());
      const key = randomUUID();
      const both = await Promise.all(
        [0, 1].map(() => post(shared(), "setpassword", token, { new_password: "changed-password-2" }, key)),
      );
      for (const answer of both)
        expectSuccess(answer, ["session_token", "session_state", "profile_mnemocode"]);
      expect(both[0]?.body).toEqual(both[1]?.body);
      expect(both.filter((answer) => answer.headers.get("idempotent-replayed") === "true")).toHaveLength(1);
    });
  });

  describe("the same key with another body", () => {
    it.each([
      ["setpassword", { new_password: "changed-password-2" }, { new_password: "changed-password-3" }],
      ["logout", {}, { unused: true }],
    ])(
      "is refused on %s with request.validation.failed (422), before and after the first answer",
      async (operation, body, other) => {
        const token =
          operation === "setpassword"
            ? (await forcedChange(shared())).token
            : await startLogin(company, (await createUser(company)).loginName);
        const key = randomUUID();
        const first = await post(shared(), operation, token, body, key);
        expect(first.body.status).toBe("success");
        expectError(await post(shared(), operation, token, other, key), 422, "request.validation.failed");
        expectReplayOf(await post(shared(), operation, token, body, key), first);
      },
    );
  });

  describe("an Idempotency-Key that is no visible ASCII of 1 to 255 characters", () => {
    it.each([
      ["empty", ""],
      ["too long", "k".repeat(256)],
      ["with a space", "my key"],
    ])("is refused with request.validation.failed (400): %s", async (_name, key) => {
      const token = await startLogin(company, (await createUser(company)).loginName);
      expectError(await post(shared(), "logout", token, {}, key), 400, "request.validation.failed");
      // Nothing happened: the token still works.
      expectSuccess(await post(shared(), "logout", token, {}), []);
    });
  });

  describe("parallel setpassword calls with one token", () => {
    const parallel = 5;

    it.each([
      ["recovery-setpassword", recovery, []],
      ["setpassword", forcedChange, ["session_token", "session_state", "profile_mnemocode"]],
    ] as const)(
      "in state %s: exactly one succeeds, the rest answer auth.token.invalid, and the winner's password is the one that works",
      async (state, session, fields) => {
        for (const keyed of [true, false]) {
          const { user, token } = await session(shared());
          const passwords = Array.from({ length: parallel }, (_, index) => `parallel-password-${index}-x`);
          const answers = await Promise.all(
            passwords.map((password) =>
              post(
                shared(),
                "setpassword",
                token,
                { new_password: password },
                keyed ? randomUUID() : undefined,
              ),
            ),
          );
          const winners = answers.flatMap((answer, index) =>
            answer.body.status === "success" ? [index] : [],
          );
          console.log(
            `parallel setpassword (${state}, ${keyed ? "each with its own key" : "no key"}): ${answers.map((answer) => answer.body.error_code ?? "success").join(", ")}`,
          );
          expect(winners).toHaveLength(1);
          for (const [index, answer] of answers.entries()) {
            if (index === winners[0]) expectSuccess(answer, fields);
            else expectError(answer, 401, "auth.token.invalid");
          }
          const winner = passwords[winners[0] ?? -1] as string;
          expect(await workingPasswords(shared(), user, [...passwords, "initial-password-1"])).toEqual([
            winner,
          ]);
        }
      },
    );
  });
});

describe("a retry with the same key after its answer was lost", () => {
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let target: Target;
  let provider: TestOAuth2Provider;

  beforeAll(async () => {
    provider = await TestOAuth2Provider.start();
    // The tests' OpenID Connect provider listens on plain HTTP on loopback. The gateway keeps its
    // answers in its memory (no Redis), which its restart below empties.
    own = await startOwnSuite(
      { identity: { OAUTH_ALLOW_INSECURE_HTTP: "true" } },
      { embeddedStores: "Redis" },
    );
    suite = own.suite;
    target = {
      company: await createCompany(
        { captchaAfterFailures: 1_000, lockoutAfterFailures: 1_000 },
        operatorOf(suite),
      ),
      gatewayUrl: suite.gatewayUrl,
    };
  }, testBudgets.suiteStartMs);
  afterAll(async () => {
    await own?.stop();
    await provider?.stop();
  });

  /**
   * The change was finished, its last step made (the session moved on, or ended with the user's
   * others), and its answer lost: this gateway keeps answers in its memory, which a restart empties,
   * as a gateway that dies before keeping one does. The session service answers the same request
   * again as the change answered it (docs/decisions.md, "Idempotency-Key"), no other request.
   */
  it(
    "after the last step of setpassword (either state) or acceptdisclaimers: the session service answers the same request again, the same new token",
    async () => {
      const terms: Target = {
        company: await companyWithTerms(provider, operatorOf(suite)),
        gatewayUrl: suite.gatewayUrl,
      };
      const body = { new_password: "changed-before-restart-2" };
      const requests = [
        {
          name: "setpassword in state setpassword",
          to: target,
          operation: "setpassword",
          body,
          ...(await forcedChange(target)),
        },
        {
          name: "setpassword in state recovery-setpassword",
          to: target,
          operation: "setpassword",
          body,
          ...(await recovery(target)),
        },
        {
          name: "acceptdisclaimers",
          to: terms,
          operation: "acceptdisclaimers",
          body: { accept_disclaimers: ["terms"] },
          token: await owingDisclaimers(terms, provider),
          user: undefined,
        },
      ];
      const firsts = [];
      for (const request of requests) {
        const key = randomUUID();
        const first = await post(request.to, request.operation, request.token, request.body, key);
        expect(first.body.status, `${request.name}: ${JSON.stringify(first.body)}`).toBe("success");
        firsts.push({ ...request, key, first });
      }
      await suite.restart("gateway");
      for (const { name, to, operation, token, body: sent, key, first, user } of firsts) {
        const { answer: retry } = await untilServed(() => post(to, operation, token, sent, key));
        expect(retry.body, name).toEqual(first.body);
        expect(retry.headers.get("idempotent-replayed"), name).toBeNull();
        expectError(await post(to, operation, token, sent, randomUUID()), 401, "auth.token.invalid");
        if (first.body.session_token !== undefined)
          expectSuccess(await post(to, "logout", String(first.body.session_token), {}), []);
        if (user)
          expect(await workingPasswords(to, user, [body.new_password, "initial-password-1"])).toEqual([
            body.new_password,
          ]);
      }
    },
    3 * testBudgets.testMs,
  );

  /**
   * The recovery service is down when setpassword ends the user's recovery links, after the
   * password was written: the first answer is 503. Once it is back, the same request (same key,
   * token and body) finishes the change without writing the password again, and answers success;
   * any other request with the token is refused meanwhile.
   */
  it.each([
    ["recovery-setpassword", recovery, []],
    ["setpassword", forcedChange, ["session_token", "session_state", "profile_mnemocode"]],
  ] as const)(
    "after a 503 in the middle of the change, in state %s: finishes the change once and answers success",
    async (state, session, fields) => {
      const { user, token } = await session(target);
      const key = randomUUID();
      const body = { new_password: "changed-after-fault-2" };
      await suite.children.recovery.kill();
      let first: ApiResponse;
      const sent = Date.now();
      let firstMs = 0;
      try {
        first = await post(target, "setpassword", token, body, key);
        firstMs = Date.now() - sent;
      } finally {
        await suite.restart("recovery");
      }
      expectError(first, 503, "service.unavailable");
      // The password was written once, and the session is claimed by the request: no other may set one.
      expectError(
        await post(target, "setpassword", token, { new_password: "another-password-3" }, randomUUID()),
        401,
        "auth.token.invalid",
      );
      expectError(
        await post(target, "setpassword", token, { new_password: "another-password-4" }),
        401,
        "auth.token.invalid",
      );
      expect(await workingPasswords(target, user, ["changed-after-fault-2", "initial-password-1"])).toEqual([
        "changed-after-fault-2",
      ]);
      // The gateway's channel to the restarted service comes back within about a second.
      const started = Date.now();
      const { answer: retry, tries } = await untilServed(() => post(target, "setpassword", token, body, key));
      console.log(
        `${state} after a 503 (recovery down, restarted): ${firstMs} ms to the 503, then ${tries} retries with the key, the last answered success ${Date.now() - started} ms after the first retry was sent`,
      );
      expectSuccess(retry, fields);
      expectReplayOf(await post(target, "setpassword", token, body, key), retry);
      expect(await workingPasswords(target, user, ["changed-after-fault-2", "initial-password-1"])).toEqual([
        "changed-after-fault-2",
      ]);
      if (retry.body.session_token !== undefined) {
        expectSuccess(await post(target, "logout", String(retry.body.session_token), {}), []);
      }
    },
    3 * testBudgets.testMs,
  );

  it("on logout: the token is gone, and the same request is told success again, no other", async () => {
    const user = await createUser(target.company);
    const token = await startLogin(target.company, user.loginName, target.gatewayUrl);
    const key = randomUUID();
    expectSuccess(await post(target, "logout", token, {}, key), []);
    // This gateway keeps answers in its memory (no Redis): a restart loses them, as a lost answer would.
    await suite.restart("gateway");
    const { answer: retry } = await untilServed(() => post(target, "logout", token, {}, key));
    expectSuccess(retry, []);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expectError(await post(target, "logout", token, {}, randomUUID()), 401, "auth.token.invalid");
    expectError(await post(target, "logout", token, {}), 401, "auth.token.invalid");
  });
});

const realStores = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

/**
 * Two replicas of every process on PostgreSQL and Redis (the gateways keep the answers in Redis, as
 * in production), with the product's request deadline of 5 s. A gateway is killed (SIGKILL) in the
 * middle of a request with a key; the client sends the same request again, which reaches the other
 * gateway: it takes the key over from the dead one (docs/decisions.md, "Idempotency-Key") and
 * answers as the first would have, the change made once, in under a second more than the change
 * itself takes (the slowest of five undisturbed runs; the kills land at fractions of the fastest).
 */
describe.runIf(realStores)("a retry with the same key after its gateway died", () => {
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let provider: TestOAuth2Provider;
  /** Through the gateway that dies, and the one the retry reaches; `terms` for acceptdisclaimers. */
  let dying: Target;
  let surviving: Target;
  let terms: { dying: Target; surviving: Target };
  const outcomes: string[] = [];

  beforeAll(async () => {
    provider = await TestOAuth2Provider.start();
    own = await startOwnSuite(
      { identity: { OAUTH_ALLOW_INSECURE_HTTP: "true" }, gateway: { REQUEST_DEADLINE_MS: "5000" } },
      { replicas: 2 },
    );
    suite = own.suite;
    const operator = operatorOf(suite);
    const company = await createCompany(
      { captchaAfterFailures: 1_000, lockoutAfterFailures: 1_000 },
      operator,
    );
    const withTerms = await companyWithTerms(provider, operator);
    const [first, second] = suite.replicas.gateway.map((replica) => replica.url ?? "");
    dying = { company, gatewayUrl: first };
    surviving = { company, gatewayUrl: second };
    terms = {
      dying: { company: withTerms, gatewayUrl: first },
      surviving: { company: withTerms, gatewayUrl: second },
    };
  }, testBudgets.suiteStartMs);
  afterAll(async () => {
    console.log(outcomes.join("\n"));
    await own?.stop();
    await provider?.stop();
  });

  /** The notices of a password write identity sent the user (one per write). */
  const passwordNotices = (user: TestUser) =>
    notificationsTo(
      surviving.company.id,
      { email: user.email },
      { mail: suite.mailOutboxFile, sms: suite.smsOutboxFile },
    ).filter((notice) => notice.notification === "password_changed");

  /** Stops (SIGSTOP) or resumes (SIGCONT) every replica of a service. */
  const signalReplicas = (name: "recovery", signal: "SIGSTOP" | "SIGCONT") => {
    for (const replica of suite.replicas[name]) process.kill(replica.child.pid as number, signal);
  };

  /** Kills the gateway `dying` names; the request sent to it gets no answer. */
  const killDying = () => suite.replicas.gateway[0]?.child.kill();

  /** Milliseconds five undisturbed runs took: the fastest, and the slowest (the machine is shared, its speed moves). */
  async function timesOf(run: () => Promise<void>): Promise<{ fastest: number; slowest: number }> {
    const times: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    return { fastest: Math.min(...times), slowest: Math.max(...times) };
  }

  /** One kind of request with a key: a session to send it with, and what must hold once it answered. */
  interface Kind {
    operation: string;
    body: Record<string, unknown>;
    fields: string[];
    through(gateway: "dying" | "surviving"): Target;
    prepare(): Promise<{ token: string; user?: TestUser }>;
    /** The change holds, made once. */
    check(answer: ApiResponse, user?: TestUser): Promise<void>;
  }
  const newPassword = "changed-after-crash-2";
  const kinds: Record<string, Kind> = {
    setpassword: {
      operation: "setpassword",
      body: { new_password: newPassword },
      fields: ["session_token", "session_state", "profile_mnemocode"],
      through: (gateway) => (gateway === "dying" ? dying : surviving),
      prepare: () => forcedChange(surviving),
      async check(answer, user) {
        const changed = user as TestUser;
        expect(await workingPasswords(surviving, changed, [newPassword, "initial-password-1"])).toEqual([
          newPassword,
        ]);
        expectSuccess(await post(surviving, "logout", String(answer.body.session_token), {}), []);
        // Written once: one notice (sent in the background after the write).
        await expect.poll(() => passwordNotices(changed).length).toBeGreaterThan(0);
        expect(passwordNotices(changed)).toHaveLength(1);
      },
    },
    acceptdisclaimers: {
      operation: "acceptdisclaimers",
      body: { accept_disclaimers: ["terms"] },
      fields: ["session_token", "session_state", "profile_mnemocode"],
      through: (gateway) => terms[gateway],
      prepare: async () => ({ token: await owingDisclaimers(terms.surviving, provider) }),
      async check(answer) {
        expectSuccess(await post(terms.surviving, "logout", String(answer.body.session_token), {}), []);
      },
    },
    logout: {
      operation: "logout",
      body: {},
      fields: [],
      through: (gateway) => (gateway === "dying" ? dying : surviving),
      prepare: async () => {
        const user = await createUser(surviving.company);
        return { token: await startLogin(surviving.company, user.loginName, surviving.gatewayUrl) };
      },
      async check() {},
    },
  };

  it(
    "killed while setpassword waits for the recovery service, after the password was written: one retry through the other gateway finishes the change once, within a second more than the change takes",
    async () => {
      const kind = kinds.setpassword as Kind;
      const { slowest: changeMs } = await timesOf(async () => {
        const { token } = await kind.prepare();
        expectSuccess(await post(dying, "setpassword", token, kind.body, randomUUID()), kind.fields);
      });
      const { user, token } = await kind.prepare();
      const key = randomUUID();
      // The recovery service hangs: the request stops after the password is written, ending the user's links.
      signalReplicas("recovery", "SIGSTOP");
      let killedAfterMs = 0;
      try {
        const started = performance.now();
        const lost = post(dying, "setpassword", token, kind.body, key).catch((error: unknown) => error);
        await expect
          .poll(() => passwordNotices(user as TestUser).length, { timeout: testBudgets.testMs, interval: 20 })
          .toBe(1);
        await killDying();
        killedAfterMs = performance.now() - started;
        expect(await lost).toBeInstanceOf(Error);
      } finally {
        signalReplicas("recovery", "SIGCONT");
      }

      const started = performance.now();
      const retry = await post(surviving, "setpassword", token, kind.body, key);
      const retryMs = performance.now() - started;
      outcomes.push(
        `setpassword, gateway killed ${Math.round(killedAfterMs)} ms after the request (the password written, the recovery service frozen): the retry answered ${retry.status} in ${Math.round(retryMs)} ms; the change undisturbed takes up to ${Math.round(changeMs)} ms`,
      );
      expectSuccess(retry, kind.fields);
      expect(retry.headers.get("idempotent-replayed")).toBeNull();
      expect(retryMs).toBeLessThan(1_000 + changeMs);
      expectReplayOf(await post(surviving, "setpassword", token, kind.body, key), retry);
      await kind.check(retry, user);
      await suite.restart("gateway");
    },
    3 * testBudgets.testMs,
  );

  it.each(Object.keys(kinds))(
    "killed at any moment of %s: one retry through the other gateway answers as the first would have, the change made once, within a second more than the change takes",
    async (name) => {
      const kind = kinds[name] as Kind;
      const { fastest, slowest: changeMs } = await timesOf(async () => {
        const { token } = await kind.prepare();
        expectSuccess(
          await post(kind.through("dying"), kind.operation, token, kind.body, randomUUID()),
          kind.fields,
        );
      });
      for (const fraction of [0.2, 0.5, 0.8]) {
        const { token, user } = await kind.prepare();
        const key = randomUUID();
        const delayMs = Math.round(fraction * fastest);
        const killing = sleep(delayMs).then(killDying);
        const first = await post(kind.through("dying"), kind.operation, token, kind.body, key).catch(
          () => undefined,
        );
        await killing;
        const started = performance.now();
        const retry = await post(kind.through("surviving"), kind.operation, token, kind.body, key);
        const retryMs = performance.now() - started;
        outcomes.push(
          `${name}, gateway killed after ${delayMs} ms: the first ${first ? `answered ${first.status}` : "got no answer"}; the retry answered ${retry.status}${retry.headers.get("idempotent-replayed") ? " (replayed)" : ""} in ${Math.round(retryMs)} ms; the change undisturbed takes up to ${Math.round(changeMs)} ms`,
        );
        expectSuccess(retry, kind.fields);
        if (first) expect(retry.body).toEqual(first.body);
        expect(retryMs).toBeLessThan(1_000 + changeMs);
        await kind.check(retry, user);
        await suite.restart("gateway");
      }
    },
    3 * testBudgets.testMs,
  );
});
