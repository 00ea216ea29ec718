import { randomBytes } from "node:crypto";
import type { RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call } from "./support/api.js";
import {
  createCompany,
  createUser,
  operatorOf,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";

const captcha = "dev-captcha-pass";
const burst = 200;
/** The default policy's budget of passwords: 10 failures, then auth.restricted. */
const budget = 10;

/**
 * No user's burst takes capacity from others (docs/operations.md, "A burst at one user"): 200 wrong
 * passwords at once at one user, on PostgreSQL and Redis with two replicas of every process, as the
 * review of issue 32 measured it (then 63 of 130 answered 503, identity's connection pool waited out
 * by the user's row read before the budget refused). Identity asks the budget before it reads the
 * user, so a refused guess holds no connection; and each gateway works on two requests of a login ID
 * at a time, so a burst waits on itself. The comparisons and queries are counted by the services
 * (`/metrics`), the others' latency compared within the run.
 */
describe.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)(
  "a burst of wrong passwords at one user, on PostgreSQL and Redis with two replicas of every process",
  () => {
    let own: Awaited<ReturnType<typeof startOwnSuite>>;
    let suite: RunningSuite;
    let company: TestCompany;
    let others: TestUser[];

    beforeAll(async () => {
      // identity's relay reads its outbox once an hour here, so that its reads do not count as the guesses'.
      own = await startOwnSuite({ identity: { EVENTS_POLL_MS: "3600000" } }, { replicas: 2, metrics: true });
      suite = own.suite;
      // The default policy (captcha after 3, lock-out after 10), without the rate limits in the way.
      company = await createCompany({}, operatorOf(suite));
      others = await Promise.all(Array.from({ length: 5 }, () => createUser(company)));
      // Every process warm (connections, caches, compiled code) before anything is timed.
      for (const user of others) await logIn(user, 0);
    });
    afterAll(async () => {
      await own?.stop();
    });

    const gatewayUrls = () => suite.replicas.gateway.map((replica) => replica.url ?? "");
    /** A request through the gateway replica of that number. */
    const post = (via: number, operation: string, body: Record<string, unknown>, token?: string) => {
      const urls = gatewayUrls();
      return call(company.code, operation, {
        apiKey: company.apiKey,
        gatewayUrl: urls[via % urls.length],
        body,
        token,
      });
    };
    /** The answers of a burst, by status and code. */
    const tally = (answers: ApiResponse[]) =>
      answers.reduce<Record<string, number>>((counts, answer) => {
        const key = `${answer.status} ${answer.body.status === "success" ? "success" : answer.body.error_code}`;
        counts[key] = (counts[key] ?? 0) + 1;
        return counts;
      }, {});
    /** A counter of every identity replica, summed. */
    async function identityCounter(pattern: RegExp): Promise<number> {
      const texts = await Promise.all(
        suite.replicas.identity.map(async (replica) => (await fetch(replica.metricsUrl ?? "")).text()),
      );
      return texts.reduce((sum, text) => sum + Number(pattern.exec(text)?.[1] ?? 0), 0);
    }
    const compared = () => identityCounter(/^auth_secrets_compared_total\{kind="password"\} (\d+)$/m);
    const queries = () => identityCounter(/^auth_postgres_queries_total (\d+)$/m);

    /** The whole login of a user with its password (login, then checkpassword): its time, or its failure. */
    async function logIn(user: TestUser, via: number): Promise<{ ms: number; answer: string }> {
      const started = performance.now();
      const login = await post(via, "login", { login_id: user.loginName });
      const step =
        login.body.session_token === undefined
          ? login
          : await post(via, "checkpassword", { password: user.password }, String(login.body.session_token));
      return {
        ms: performance.now() - started,
        answer: `${step.status} ${step.body.session_state ?? step.body.error_code}`,
      };
    }
    /** The others log in over and over, each after its last login, until `done` (and `least` times each). */
    async function othersLogIn(least: number, done: () => boolean) {
      const logins: Array<{ ms: number; answer: string }> = [];
      await Promise.all(
        others.map(async (user, index) => {
          for (let round = 0; round < least || !done(); round += 1) logins.push(await logIn(user, index));
        }),
      );
      return logins;
    }
    /** The time under which that share of the logins finished. */
    const percentile = (share: number, logins: Array<{ ms: number }>) => {
      const sorted = logins.map((login) => login.ms).sort((a, b) => a - b);
      return sorted[Math.ceil(sorted.length * share) - 1] ?? Number.NaN;
    };
    /** 200 wrong passwords at once at the user, through both gateways, each with a solved captcha. */
    const guessAtOnce = (user: TestUser) =>
      Promise.all(
        Array.from({ length: burst }, (_, index) =>
          post(index, "checkcredentials", {
            login_id: user.loginName,
            password: `wrong-${randomBytes(6).toString("hex")}`,
            captcha_response: captcha,
          }),
        ),
      );

    /**
     * The budget's answers to a burst: 10 wrong passwords, the rest auth.restricted, or 429 for those
     * that waited half their deadline for their login ID's turn (none on a machine that keeps up); no 503.
     */
    function expectBudgetsAnswers(answers: ApiResponse[]) {
      const {
        "401 auth.credentials.invalid": wrong,
        "403 auth.restricted": restricted,
        ...rest
      } = tally(answers);
      expect(wrong).toBe(budget);
      expect(Object.keys(rest).filter((answer) => answer !== "429 request.ratelimit.exceeded")).toEqual([]);
      expect((restricted ?? 0) + (rest["429 request.ratelimit.exceeded"] ?? 0)).toBe(burst - budget);
    }

    it("of 200 at once, exactly the budget's 10 are compared and the rest refused, none 503; identity reads a few rows, not one per guess", async () => {
      const target = await createUser(company);
      const [comparedBefore, queriesBefore] = [await compared(), await queries()];
      const answers = await guessAtOnce(target);
      const read = (await queries()) - queriesBefore;
      console.log(
        `${burst} wrong passwords at once: ${JSON.stringify(tally(answers))}, identity ran ${read} queries`,
      );
      expectBudgetsAnswers(answers);
      expect((await compared()) - comparedBefore).toBe(budget);
      // The user's row read once per identity replica and again for each comparison, the company,
      // the API key and the lock-out's notice, and each comparison's auth.login.failed event, plus the
      // relays' reads of the outbox, which go by time: the longer a loaded machine takes over the
      // burst, the more of them (30 and 32 seen at a load of 30 to 57). One read per guess would be
      // 200; this bound is a quarter of that.
      expect(read).toBeLessThan(5 * budget);
    }, 240_000);

    /*
     * The burst shares the machine's two cores with the others, so their logins slow; a login waiting
     * on a pool or a queue behind the burst waited seconds (tens of times its time alone). Of the few
     * dozen logins timed, the slowest is one scheduler hiccup away from any bound, so the bulk (p90) is
     * held to 4× and the slowest to 5× of theirs alone. On a machine loaded by stress-ng the p90 came
     * out between 1.9× and 3.6× in 17 of 18 tries, 4.6× once (docs/operations.md, "A burst at one
     * user"). Measured again, alone and during a new burst, up to twice more when a round is over: a
     * burst that holds the others back fails every round.
     */
    it("5 other users logging in meanwhile: no 503, their p90 within 4× and their slowest within 5× of theirs without the burst", {
      timeout: 240_000,
      retry: 2,
    }, async () => {
      const alone = await othersLogIn(10, () => true);
      const target = await createUser(company);
      let answered = false;
      const guesses = guessAtOnce(target).finally(() => {
        answered = true;
      });
      const meanwhile = await othersLogIn(2, () => answered);
      const answers = await guesses;
      const bulk = percentile(0.9, meanwhile) / percentile(0.9, alone);
      const slowest = percentile(1, meanwhile) / percentile(1, alone);
      console.log(
        `5 users' logins alone: ${alone.length}, p90 ${percentile(0.9, alone).toFixed(0)} ms, slowest ${percentile(1, alone).toFixed(0)} ms; ` +
          `during a burst of ${burst} at another user: ${meanwhile.length}, p90 ${percentile(0.9, meanwhile).toFixed(0)} ms (${bulk.toFixed(2)}×), ` +
          `slowest ${percentile(1, meanwhile).toFixed(0)} ms (${slowest.toFixed(2)}×); the burst: ${JSON.stringify(tally(answers))}`,
      );
      expect(new Set([...alone, ...meanwhile].map((login) => login.answer))).toEqual(
        new Set(["200 authorized"]),
      );
      expectBudgetsAnswers(answers);
      expect(bulk).toBeLessThanOrEqual(4);
      expect(slowest).toBeLessThanOrEqual(5);
    });
  },
);
