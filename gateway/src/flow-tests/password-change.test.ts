import type { ApiResponse } from "@auth/testing/api";
import { beforeAll, describe, expect, it } from "vitest";
import { freshAuthenticationSeconds } from "../steps/factor-change.js";
import {
  call,
  compared,
  createCompany,
  createUser,
  expectError,
  expectSuccess,
  noticesTo,
  startLogin,
  type TestCompany,
  type TestUser,
  useInProcessSuite,
} from "../testing/fixtures.js";

const suite = useInProcessSuite();

/** The answers' error codes (or "success"), counted. */
const tally = (answers: ApiResponse[]) =>
  answers.reduce<Record<string, number>>((counts, answer) => {
    const code = String(answer.body.error_code ?? answer.body.status);
    counts[code] = (counts[code] ?? 0) + 1;
    return counts;
  }, {});

/**
 * docs/api-contract.md, "Changing the password": the signed-in user's own change, with the current
 * password or a fresh login, under setpassword's rules; nothing of the old access is left but, as
 * the user chooses, this session under a new token.
 */
describe("auth/password/change", () => {
  let company: TestCompany;
  const lockoutAfterFailures = 3;

  beforeAll(async () => {
    company = await createCompany({
      passwordRegex: "[0-9]",
      passwordRegexDescription: "At least one digit",
      captchaAfterFailures: 100,
      lockoutAfterFailures,
    });
  });

  const post = (operation: string, body: Record<string, unknown>, token?: string, key?: string) =>
    call(company.code, operation, {
      apiKey: company.apiKey,
      body,
      token,
      headers: key === undefined ? {} : { "Idempotency-Key": key },
    });
  const change = (token: string, body: Record<string, unknown>, key?: string) =>
    post("password/change", body, token, key);
  /** An authorized session of the user, signed in with the password. */
  async function signIn(user: TestUser, password = user.password): Promise<string> {
    const signedIn = await post("checkcredentials", { login_id: user.loginName, password });
    expect(signedIn.body.session_state, JSON.stringify(signedIn.body)).toBe("authorized");
    return String(signedIn.body.session_token);
  }
  const works = async (token: string) => (await post("sessions", {}, token)).body.status === "success";
  const login = (user: TestUser, password = user.password) =>
    post("checkcredentials", { login_id: user.loginName, password });
  const passwordChangedNotices = (user: TestUser) =>
    noticesTo(company.id, user.email).filter((subject) => /password was changed/.test(subject));

  describe("with the current password", () => {
    it("changes the password, ends every other session of the user in any state, and this one goes on under a new token, the one presented no longer working", async () => {
      const user = await createUser(company);
      const token = await signIn(user);
      const others = [await signIn(user), await signIn(user), await startLogin(company, user.loginName)];
      const changed = await change(token, {
        current_password: user.password,
        new_password: "a new and long passphrase 1",
      });
      expectSuccess(changed, ["sessions_ended", "session_token"]);
      expect(changed.body.sessions_ended).toBe(3);
      const renewed = String(changed.body.session_token);
      expect(await works(renewed)).toBe(true);
      expectError(await post("sessions", {}, token), 401, "auth.token.invalid");
      for (const other of others) expectError(await post("logout", {}, other), 401, "auth.token.invalid");
      expect((await login(user, "a new and long passphrase 1")).body.session_state).toBe("authorized");
      expectError(await login(user), 401, "auth.credentials.invalid", ["captcha_required"]);
    });

    it("ends this session too when end_this_session is true, counted, and gives no token", async () => {
      const user = await createUser(company);
      const token = await signIn(user);
      const other = await signIn(user);
      const changed = await change(token, {
        current_password: user.password,
        new_password: "a new and long passphrase 2",
        end_this_session: true,
      });
      expectSuccess(changed, ["sessions_ended"]);
      expect(changed.body.sessions_ended).toBe(2);
      expect(await works(token)).toBe(false);
      expect(await works(other)).toBe(false);
      expect(await works(await signIn(user, "a new and long passphrase 2"))).toBe(true);
    });

    it("tells the user: one 'password changed' notice", async () => {
      const user = await createUser(company);
      const changed = await change(await signIn(user), {
        current_password: user.password,
        new_password: "a new and long passphrase 3",
      });
      expectSuccess(changed, ["sessions_ended", "session_token"]);
      await expect.poll(() => passwordChangedNotices(user), { timeout: 20_000 }).toHaveLength(1);
    });

    it("answers a wrong current password with 401 auth.password.invalid, and changes and ends nothing", async () => {
      const user = await createUser(company);
      const token = await signIn(user);
      const other = await signIn(user);
      const before = await compared("password");
      const refused = await change(token, {
        current_password: "not the password 1",
        new_password: "a new and long passphrase 4",
      });
      expectError(refused, 401, "auth.password.invalid", ["captcha_required"]);
      expect((await compared("password")) - before).toBe(1);
      expect(await works(token)).toBe(true);
      expect(await works(other)).toBe(true);
      expect(await works(await signIn(user))).toBe(true);
    });

    it(`spends the user's password budget before the compare: of 8 wrong current passwords at once from 8 sessions, ${lockoutAfterFailures} are compared and the rest answer auth.restricted, and then so does the right one`, async () => {
      const user = await createUser(company);
      const tokens = await Promise.all(Array.from({ length: 8 }, () => signIn(user)));
      const before = await compared("password");
      const answers = await Promise.all(
        tokens.map((token) =>
          change(token, {
            current_password: "not the password 2",
            new_password: "a new and long passphrase 5",
          }),
        ),
      );
      expect(tally(answers)).toEqual({
        "auth.password.invalid": lockoutAfterFailures,
        "auth.restricted": 8 - lockoutAfterFailures,
      });
      expect((await compared("password")) - before).toBe(lockoutAfterFailures);
      const right = await change(tokens[0] as string, {
        current_password: user.password,
        new_password: "a new and long passphrase 5",
      });
      expectError(right, 403, "auth.restricted");
      expect((await compared("password")) - before).toBe(lockoutAfterFailures);
      expect(await works(tokens[1] as string)).toBe(true);
    });
  });

  describe("without the current password", () => {
    it(`takes a login passed within ${freshAuthenticationSeconds / 60} minutes`, async () => {
      const user = await createUser(company);
      const token = await signIn(user);
      const changed = await change(token, { new_password: "a new and long passphrase 6" });
      expectSuccess(changed, ["sessions_ended", "session_token"]);
      expect((await login(user, "a new and long passphrase 6")).body.session_state).toBe("authorized");
    });

    it("is no oracle of the current password: 4 requests with it as the new password are answered as 4 with wrong guesses, and compare nothing", async () => {
      const rounds = 4;
      const [owner, other] = [await createUser(company), await createUser(company)];
      /** The answers to `rounds` changes of one session, each under the token the last one gave. */
      async function changes(user: TestUser, newPassword: (round: number) => string) {
        let token = await signIn(user);
        const answers: ApiResponse[] = [];
        for (let round = 0; round < rounds; round++) {
          const answer = await change(token, { new_password: newPassword(round) });
          answers.push(answer);
          token = String(answer.body.session_token);
        }
        return answers;
      }
      const shapeOf = (answer: ApiResponse) => ({
        status: answer.status,
        body: { ...answer.body, session_token: typeof answer.body.session_token },
      });
      const before = await compared("password");
      const right = await changes(owner, () => String(owner.password));
      const wrong = await changes(other, (round) => `a wrong guess of the password ${round}`);
      expect((await compared("password")) - before).toBe(2);
      expect(right.map(shapeOf)).toEqual(wrong.map(shapeOf));
      expect(shapeOf(right[0] as ApiResponse)).toEqual({
        status: 200,
        body: { status: "success", sessions_ended: 0, session_token: "string" },
      });
      // The owner's password is still the one that logs in, with no failure counted.
      expect((await login(owner)).body.session_state).toBe("authorized");
    });

    it("answers 403 auth.reauthentication.required once the login is older, and changes and ends nothing", async () => {
      const user = await createUser(company);
      const token = await signIn(user);
      const other = await signIn(user);
      suite().clock.advance((freshAuthenticationSeconds + 1) * 1000);
      expectError(
        await change(token, { new_password: "a new and long passphrase 7" }),
        403,
        "auth.reauthentication.required",
      );
      expect(await works(token)).toBe(true);
      expect(await works(other)).toBe(true);
      expect((await login(user)).body.session_state).toBe("authorized");
      // The current password still does.
      expectSuccess(
        await change(token, { current_password: user.password, new_password: "a new and long passphrase 7" }),
        ["sessions_ended", "session_token"],
      );
    });
  });

  describe("the new password", () => {
    it.each([
      ["shorter than 15 characters", "kettle-kettle1", "At least 15 and at most 256 characters."],
      ["on the blocklist of common passwords", "1qaz2wsx3edc4rfv", "Not a common or breached password."],
      ["not matching the company's password_regex", "no-digits-at-all-here", "At least one digit"],
      ["the same as the current one", undefined, "Not the current password."],
    ])(
      "is refused with 422 request.validation.failed when %s, naming the rule, and nothing ends",
      async (_, newPassword, rule) => {
        const user = await createUser(company);
        const token = await signIn(user);
        const other = await signIn(user);
        const before = await compared("password");
        const refused = await change(token, {
          current_password: user.password,
          new_password: newPassword ?? user.password,
        });
        expectError(refused, 422, "request.validation.failed", ["password_regex_description"]);
        // The current password's check only: "the same" compares the request's two fields.
        expect((await compared("password")) - before).toBe(1);
        expect(refused.body.password_regex_description).toBe(rule);
        expect(await works(token)).toBe(true);
        expect(await works(other)).toBe(true);
        expect((await login(user)).body.session_state).toBe("authorized");
      },
    );
  });

  describe("parallel requests and retries", () => {
    it("of 5 changes at once with one token, exactly one changes the password; the others answer auth.token.invalid", async () => {
      const user = await createUser(company);
      const token = await signIn(user);
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, index) =>
          change(token, { new_password: `a new and long passphrase 8${index}` }),
        ),
      );
      expect(tally(answers)).toEqual({ success: 1, "auth.token.invalid": 4 });
      const winner = answers.findIndex((answer) => answer.body.status === "success");
      expect((await login(user, `a new and long passphrase 8${winner}`)).body.session_state).toBe(
        "authorized",
      );
      await expect.poll(() => passwordChangedNotices(user), { timeout: 20_000 }).toHaveLength(1);
    });

    it("answers the same request again (Idempotency-Key, token and body) as it answered it, and changes the password once", async () => {
      const user = await createUser(company);
      const token = await signIn(user);
      await signIn(user);
      const body = { current_password: user.password, new_password: "a new and long passphrase 9" };
      const first = await change(token, body, "change-1");
      expectSuccess(first, ["sessions_ended", "session_token"]);
      const before = await compared("password");
      const again = await change(token, body, "change-1");
      expect(again.status).toBe(200);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body).toEqual(first.body);
      expect((await compared("password")) - before).toBe(0);
      expect(await works(String(first.body.session_token))).toBe(true);
      // Another key is another request: the token it presents is gone.
      expectError(await change(token, body, "change-2"), 401, "auth.token.invalid");
      await expect.poll(() => passwordChangedNotices(user), { timeout: 20_000 }).toHaveLength(1);
    });
  });
});
