import { TokenStatus } from "@auth/proto/introspection";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call, expectError, expectSuccess } from "./support/api.js";
import { createCompany, createUser, type TestCompany } from "./support/fixtures.js";
import { startLogin } from "./support/flows.js";
import { passwordLogins, useTokenStatus } from "./support/password-logins.js";

/**
 * docs/api-contract.md, "Changing the password", on the real suite: the signed-in user's change
 * leaves nothing of the old access (docs/security.md, "A password change") but, as the user
 * chooses, the session that made it, under a new token; the new password logs in, the old one not.
 */
describe("a password change while signed in", () => {
  let company: TestCompany;
  const statusOf = useTokenStatus();
  const { checkcredentials, logIn } = passwordLogins(() => company);

  beforeAll(async () => {
    company = await createCompany();
  });

  const post = (operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });

  it("ends the user's other sessions in every state, keeps this one under a new token, and only the new password logs in", async () => {
    const user = await createUser(company, { password: "old-password-1" });
    const changing = await logIn(user);
    const others = [await logIn(user), await logIn(user), await startLogin(company, user.loginName)];
    const changed = await post(
      "password/change",
      { current_password: "old-password-1", new_password: "a-new-password-2" },
      changing,
    );
    expectSuccess(changed, ["sessions_ended", "session_token"]);
    expect(changed.body.sessions_ended).toBe(3);
    expect(await statusOf(String(changed.body.session_token))).toBe(TokenStatus.ACTIVE);
    for (const token of [changing, ...others]) expect(await statusOf(token)).toBe(TokenStatus.INVALID);
    await logIn(user, "a-new-password-2");
    expectError(await checkcredentials(user, "old-password-1"), 401, "auth.credentials.invalid", [
      "captcha_required",
    ]);
  });

  it("ends this session too when the user chooses, and the logins that checked the old password while it was changing", async () => {
    const user = await createUser(company, { password: "old-password-1" });
    const changing = await logIn(user);
    const [changed, ...logins] = await Promise.all([
      post(
        "password/change",
        { current_password: "old-password-1", new_password: "a-new-password-2", end_this_session: true },
        changing,
      ),
      ...Array.from({ length: 4 }, () => checkcredentials(user, "old-password-1")),
    ]);
    expectSuccess(changed as ApiResponse, ["sessions_ended"]);
    expect(await statusOf(changing)).toBe(TokenStatus.INVALID);
    for (const answer of logins) {
      if (answer.body.status === "success")
        expect(await statusOf(String(answer.body.session_token))).toBe(TokenStatus.INVALID);
    }
    await logIn(user, "a-new-password-2");
    expectError(await checkcredentials(user, "old-password-1"), 401, "auth.credentials.invalid", [
      "captcha_required",
    ]);
  });
});
