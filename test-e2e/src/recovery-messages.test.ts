import { beforeAll, describe, expect, it } from "vitest";
import { call, expectError } from "./support/api.js";
import { createCompany, createUser, type TestCompany, type TestUser } from "./support/fixtures.js";
import { mailTo, smsTo } from "./support/outbox.js";

const captcha = "dev-captcha-pass";
const recovery = { order: [], disabled: [], disabledByRole: {}, linkBase: "https://app.example.com/recover" };

/** Recovery e-mails and SMS are capped per user per hour (default 5), across the user's login IDs. */
describe("recovery messages per user", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany({ recovery });
  });
  const recover = (loginId: string, method: "PHONE" | "MAIL") =>
    call(company.code, "recovery/recover", {
      apiKey: company.apiKey,
      body: { login_id: loginId, captcha_response: captcha, method },
    });
  const messagesTo = (user: TestUser) =>
    smsTo(company.id, user.phone).length + mailTo(company.id, user.email).length;

  it("go out at most 5 an hour, SMS and e-mail together, whichever login ID asks", async () => {
    const user = await createUser(company);
    const ways: [string, "PHONE" | "MAIL"][] = [
      [user.loginName, "MAIL"],
      [user.email, "PHONE"],
      [user.phone, "MAIL"],
      [user.loginName, "PHONE"],
      [user.email, "MAIL"],
    ];
    for (const [loginId, method] of ways) expect((await recover(loginId, method)).status).toBe(200);
    for (const [loginId, method] of ways.slice(0, 3)) {
      const refused = await recover(loginId, method);
      expectError(refused, 429, "request.ratelimit.exceeded");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3_000);
    }
    expect(messagesTo(user)).toBe(5);
  });

  it("go out at most 5 however many recoveries race, through any of the user's login IDs", async () => {
    const user = await createUser(company);
    const loginIds = [user.loginName, user.email, user.phone];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => recover(loginIds[i % 3] ?? "", i % 2 === 0 ? "MAIL" : "PHONE")),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    expect(messagesTo(user)).toBe(5);
  });

  it("follow the company's recovery_messages_per_hour, and count each user on their own", async () => {
    const strict = await createCompany({ recovery, recoveryMessagesPerHour: 2 });
    const [first, second] = await Promise.all([createUser(strict), createUser(strict)]);
    const recoverAt = (loginId: string) =>
      call(strict.code, "recovery/recover", {
        apiKey: strict.apiKey,
        body: { login_id: loginId, captcha_response: captcha, method: "MAIL" },
      });
    expect((await recoverAt(first.loginName)).status).toBe(200);
    expect((await recoverAt(first.email)).status).toBe(200);
    expectError(await recoverAt(first.loginName), 429, "request.ratelimit.exceeded");
    expect((await recoverAt(second.loginName)).status).toBe(200);
    expect(mailTo(strict.id, first.email)).toHaveLength(2);
  });

  it("do not include the one-time passwords of a login", async () => {
    const user = await createUser(company, { password: null });
    for (let i = 0; i < 5; i += 1) expect((await recover(user.loginName, "MAIL")).status).toBe(200);
    const login = await call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: user.loginName },
    });
    expect(login.body.session_state).toBe("checkotp");
    expect(smsTo(company.id, user.phone)).toHaveLength(1);
  });
});
