import { TokenStatus } from "@auth/proto/introspection";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call, expectError, expectSuccess } from "./support/api.js";
import { createCompany, createUser, type TestCompany, type TestUser } from "./support/fixtures.js";
import { recoverToSetpassword, startLogin } from "./support/flows.js";
import { linkToken, mailTo } from "./support/outbox.js";
import { passwordLogins, useTokenStatus } from "./support/password-logins.js";

const captcha = "dev-captcha-pass";
const linkBase = "https://app.example.com/recover";

/**
 * docs/security.md, "A password change": a password changed in state setpassword or by recovery
 * leaves nothing of the old access. Every other session of the user ends, in any state, and so does
 * a login that checked the old password while the change was under way, whichever finished first;
 * the user's recovery links end too.
 */
describe("a password change leaves nothing of the old access", () => {
  let company: TestCompany;
  const statusOf = useTokenStatus();
  const { checkcredentials, logIn } = passwordLogins(() => company);

  beforeAll(async () => {
    company = await createCompany({ recovery: { order: [], disabled: [], disabledByRole: {}, linkBase } });
  });

  const post = (operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });
  // With a captcha: the old password, once changed, counts as a failure like any wrong one.
  const checkpassword = (token: string, password: string) =>
    post("checkpassword", { password, captcha_response: captcha }, token);
  /** The tokens that came out of a burst of logins, those that reached authorized. */
  const authorizedTokens = (answers: ApiResponse[]) =>
    answers
      .filter((answer) => answer.body.session_state === "authorized")
      .map((answer) => String(answer.body.session_token));

  const recoverySession = (user: TestUser) => recoverToSetpassword(company, user.loginName, "Rex");
  const recoverable = () =>
    createUser(company, { password: "old-password-1", controlQuestion: "First pet?", controlAnswer: "Rex" });
  /** A session in state setpassword: an administrator asked for a new password. */
  async function mustChangeSession(user: TestUser): Promise<string> {
    const answer = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    expect(answer.body.session_state, JSON.stringify(answer.body)).toBe("setpassword");
    return String(answer.body.session_token);
  }

  describe("by recovery", () => {
    it("ends the user's sessions in every state, and the recovery session", async () => {
      const user = await recoverable();
      const authorized = await logIn(user);
      const atPassword = await startLogin(company, user.loginName);
      const recovery = await recoverySession(user);
      expectSuccess(await post("setpassword", { new_password: "a-new-password-2" }, recovery), []);
      for (const token of [authorized, atPassword, recovery])
        expect(await statusOf(token)).toBe(TokenStatus.INVALID);
      expectError(await checkpassword(atPassword, "a-new-password-2"), 401, "auth.token.invalid");
    });

    it("ends the logins that checked the old password while it was changing, whichever finished first", async () => {
      for (let round = 0; round < 3; round += 1) {
        const user = await recoverable();
        const waiting = await Promise.all(
          Array.from({ length: 4 }, () => startLogin(company, user.loginName)),
        );
        const recovery = await recoverySession(user);
        const [changed, ...logins] = await Promise.all([
          post("setpassword", { new_password: "a-new-password-2" }, recovery),
          ...waiting.map((token) => checkpassword(token, "old-password-1")),
          ...Array.from({ length: 4 }, () => checkcredentials(user, "old-password-1")),
        ]);
        expectSuccess(changed as ApiResponse, []);
        for (const token of authorizedTokens(logins)) expect(await statusOf(token)).toBe(TokenStatus.INVALID);
        expectError(await checkcredentials(user, "old-password-1"), 401, "auth.credentials.invalid", [
          "captcha_required",
        ]);
        await logIn(user, "a-new-password-2");
      }
    });

    it("ends the user's other recovery links, sent before it", async () => {
      const user = await createUser(company, { password: "old-password-1" });
      const mailLink = async () => {
        expect(
          (
            await post("recovery/recover", {
              login_id: user.email,
              captcha_response: captcha,
              method: "MAIL",
            })
          ).body.verification,
        ).toBe("MAIL");
        return linkToken(mailTo(company.id, user.email).at(-1)?.text ?? "");
      };
      const first = await mailLink();
      const second = await mailLink();
      const linked = await post("recovery/checklink", { token: first });
      expect(linked.body.session_state, JSON.stringify(linked.body)).toBe("recovery-setpassword");
      expectSuccess(
        await post("setpassword", { new_password: "a-new-password-2" }, String(linked.body.session_token)),
        [],
      );
      expectError(await post("recovery/checklink", { token: second }), 401, "auth.token.invalid");
    });
  });

  describe("in state setpassword", () => {
    it("keeps the session that changed it, and ends every other session of the user and the recovery links", async () => {
      const user = await createUser(company, { password: "old-password-1", passwordChangeRequired: true });
      const other = await mustChangeSession(user);
      const atPassword = await startLogin(company, user.loginName);
      expect(
        (
          await post("recovery/recover", {
            login_id: user.loginName,
            captcha_response: captcha,
            method: "MAIL",
          })
        ).body.verification,
      ).toBe("MAIL");
      const link = linkToken(mailTo(company.id, user.email).at(-1)?.text ?? "");
      const changing = await mustChangeSession(user);
      const changed = await post("setpassword", { new_password: "a-new-password-2" }, changing);
      expect(changed.body.session_state, JSON.stringify(changed.body)).toBe("authorized");
      expect(await statusOf(String(changed.body.session_token))).toBe(TokenStatus.ACTIVE);
      for (const token of [other, atPassword]) expect(await statusOf(token)).toBe(TokenStatus.INVALID);
      expectError(
        await post("setpassword", { new_password: "third-password-3" }, other),
        401,
        "auth.token.invalid",
      );
      expectError(await post("recovery/checklink", { token: link }), 401, "auth.token.invalid");
    });

    it("lets one of two sessions that change it at once win: the password is the winner's", async () => {
      for (let round = 0; round < 3; round += 1) {
        const user = await createUser(company, { password: "old-password-1", passwordChangeRequired: true });
        const [a, b] = [await mustChangeSession(user), await mustChangeSession(user)];
        const answers = await Promise.all([
          post("setpassword", { new_password: "password-of-a-1" }, a as string),
          post("setpassword", { new_password: "password-of-b-1" }, b as string),
        ]);
        const winners = answers.filter((answer) => answer.body.session_state === "authorized");
        expect(winners, JSON.stringify(answers.map((answer) => answer.body))).toHaveLength(1);
        const loser = answers.find((answer) => answer.body.status === "error");
        expect(loser?.body.error_code).toBe("auth.token.invalid");
        const won = answers[0] === winners[0] ? "password-of-a-1" : "password-of-b-1";
        const lost = won === "password-of-a-1" ? "password-of-b-1" : "password-of-a-1";
        await logIn(user, won);
        expectError(await checkcredentials(user, lost), 401, "auth.credentials.invalid", [
          "captcha_required",
        ]);
      }
    });

    it("ends the logins that checked the old password while it was changing", async () => {
      const user = await createUser(company, { password: "old-password-1", passwordChangeRequired: true });
      const changing = await mustChangeSession(user);
      const waiting = await Promise.all(Array.from({ length: 4 }, () => startLogin(company, user.loginName)));
      const [changed, ...logins] = await Promise.all([
        post("setpassword", { new_password: "a-new-password-2" }, changing),
        ...waiting.map((token) => checkpassword(token, "old-password-1")),
        ...Array.from({ length: 4 }, () => checkcredentials(user, "old-password-1")),
      ]);
      expect((changed as ApiResponse).body.session_state).toBe("authorized");
      // A login that got as far as setpassword with the old password must not live on either.
      for (const answer of logins) {
        if (answer.body.status === "success")
          expect(await statusOf(String(answer.body.session_token))).toBe(TokenStatus.INVALID);
      }
    });
  });
});
