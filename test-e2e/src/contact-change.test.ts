import { randomPhone } from "@auth/identity/fixtures";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { call } from "./support/api.js";
import { createCompany, createUser, type TestCompany, type TestUser } from "./support/fixtures.js";
import { lastOtp, linkToken, mailTo, notificationsTo, smsTo } from "./support/outbox.js";

const captcha = "dev-captcha-pass";
const linkBase = "https://app.example.com/recover";
/** Notices are sent in the background, after the answer: the time a loaded machine may take. */
const waitMs = 30_000;

/**
 * docs/api-contract.md, "Changing the phone or the e-mail", on the real suite: the rules are tested
 * in process (gateway/src/flow-tests/contact-change.test.ts); here the code and the link go through
 * the deployment's senders, and recovery uses the new address afterwards.
 */
describe("changing the phone or the e-mail while signed in", () => {
  let company: TestCompany;
  const post = (operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });

  beforeAll(async () => {
    company = await createCompany({ recovery: { order: [], disabled: [], disabledByRole: {}, linkBase } });
  });

  async function signedIn(user: TestUser): Promise<string> {
    const answer = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    expect(answer.body.session_state, JSON.stringify(answer.body)).toBe("authorized");
    return String(answer.body.session_token);
  }

  const recover = (user: TestUser, method: "PHONE" | "MAIL") =>
    post("recovery/recover", { login_id: user.loginName, captcha_response: captcha, method });

  it("the phone: the code goes to the new phone, the old one is told, and recovery by PHONE goes to the new one", async () => {
    const user = await createUser(company);
    const token = await signedIn(user);
    const phone = randomPhone();
    expect((await post("phone/change", { phone }, token)).body.status).toBe("success");
    expect(smsTo(company.id, user.phone)).toEqual([]);
    expect((await post("phone/confirm", { code: lastOtp(company.id, phone) }, token)).body).toEqual({
      status: "success",
    });
    await vi.waitFor(
      () =>
        expect(
          notificationsTo(company.id, { phone: user.phone }).map((notice) => notice.notification),
        ).toEqual(["phone_changed"]),
      { timeout: waitMs, interval: 100 },
    );
    const recovery = await recover(user, "PHONE");
    expect(recovery.body).toMatchObject({
      verification: "PHONE",
      user_phone: `+1********${phone.slice(-2)}`,
    });
    expect(smsTo(company.id, phone).at(-1)).toMatch(/access recovery code is \d{6}/);
    expect(smsTo(company.id, user.phone)).toEqual([]);
  });

  it("the e-mail: the link goes to the new address, the old one is told, and recovery by MAIL goes to the new one", async () => {
    const user = await createUser(company);
    const token = await signedIn(user);
    const email = `new-${user.loginName}@example.org`;
    expect((await post("email/change", { email }, token)).body.status).toBe("success");
    const [link] = mailTo(company.id, email);
    const emailToken = new URL(
      /https?:\/\/\S+/.exec(link?.text ?? "")?.[0] ?? "https://none/",
    ).searchParams.get("email_token");
    expect(emailToken).toBeTruthy();
    expect((await post("email/confirm", { token: emailToken })).body).toEqual({ status: "success" });
    await vi.waitFor(
      () =>
        expect(
          notificationsTo(company.id, { email: user.email }).map((notice) => notice.notification),
        ).toEqual(["email_changed"]),
      { timeout: waitMs, interval: 100 },
    );
    expect((await recover(user, "MAIL")).body).toMatchObject({ verification: "MAIL" });
    expect(linkToken(mailTo(company.id, email).at(-1)?.text ?? "")).toBeTruthy();
    expect(mailTo(company.id, user.email)).toEqual([]);
  });
});
