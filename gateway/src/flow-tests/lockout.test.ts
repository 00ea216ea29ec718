import { UserStatus } from "@auth/proto/identity";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createUser,
  expectError,
  lastOtp,
  smsTo,
  startLogin,
  type TestCompany,
  updateCompany,
  updateUserAuthentication,
  useInProcessSuite,
} from "../testing/fixtures.js";

const suite = useInProcessSuite();

/** The failure window of this file's company, which the services' clock passes in a step. */
const windowSeconds = 20;

describe("lock-out (docs/api-contract.md, Captcha and lock-out)", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany({
      captchaAfterFailures: 100,
      lockoutAfterFailures: 3,
      failureWindowSeconds: windowSeconds,
    });
  });

  it("answers auth.restricted once the login ID reached the limit, and lifts it after the window", async () => {
    const user = await createUser(company);
    const token = await startLogin(company, user.loginName);
    for (let i = 0; i < 3; i += 1) {
      await call(company.code, "checkpassword", {
        apiKey: company.apiKey,
        token,
        body: { password: "wrong" },
      });
    }
    const checkcredentials = () =>
      call(company.code, "checkcredentials", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName, password: user.password },
      });
    expectError(await checkcredentials(), 403, "auth.restricted");
    expectError(
      await call(company.code, "login", { apiKey: company.apiKey, body: { login_id: user.loginName } }),
      403,
      "auth.restricted",
    );
    // Lifted when the window ends.
    suite().clock.advance(windowSeconds * 1000);
    expect((await checkcredentials()).body.session_state).toBe("authorized");
  });

  it("answers login with auth.restricted before auth.loginid.notfound or the user's status", async () => {
    const closed = await createUser(company, { status: UserStatus.CLOSED });
    for (const loginId of [closed.loginName, "nobody-locked-out"]) {
      for (let i = 0; i < 3; i += 1) {
        await call(company.code, "checkcredentials", {
          apiKey: company.apiKey,
          body: { login_id: loginId, password: "wrong" },
        });
      }
      const login = await call(company.code, "login", {
        apiKey: company.apiKey,
        body: { login_id: loginId },
      });
      expectError(login, 403, "auth.restricted");
      expect(Number(login.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  it("answers login of a user without a password with auth.restricted once the SMS codes are locked out, and sends no more", async () => {
    const withoutPassword = await createUser(company, { password: null });
    for (let i = 0; i < 3; i += 1) {
      const login = await call(company.code, "login", {
        apiKey: company.apiKey,
        body: { login_id: withoutPassword.loginName },
      });
      expectError(
        await call(company.code, "checkotp", {
          apiKey: company.apiKey,
          token: String(login.body.session_token),
          body: { otp: "000000" === lastOtp(company.id, withoutPassword.phone) ? "111111" : "000000" },
        }),
        401,
        "auth.otp.invalid",
      );
    }
    const login = await call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: withoutPassword.loginName },
    });
    expectError(login, 403, "auth.restricted");
    expect(smsTo(company.id, withoutPassword.phone)).toHaveLength(3);
  });

  it("counts failures of a login ID nobody has", async () => {
    const attempt = () =>
      call(company.code, "checkcredentials", {
        apiKey: company.apiKey,
        body: { login_id: "ghost", password: "x" },
      });
    for (let i = 0; i < 3; i += 1) expect((await attempt()).body.error_code).toBe("auth.credentials.invalid");
    expectError(await attempt(), 403, "auth.restricted");
  });
});

describe("a run of wrong passwords (docs/security.md, A run of wrong passwords)", () => {
  it("refuses the user's password after 100 wrong ones without a right one, across windows, until an operator sets a new one", async () => {
    const company = await createCompany({
      captchaAfterFailures: 1_000,
      lockoutAfterFailures: 10,
      failureWindowSeconds: windowSeconds,
    });
    const user = await createUser(company);
    const checkcredentials = (password: string) =>
      call(company.code, "checkcredentials", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName, password },
      });
    for (let window = 0; window < 10; window += 1) {
      for (let i = 0; i < 10; i += 1) {
        expect((await checkcredentials(`wrong-${window}-${i}`)).body.error_code).toBe(
          "auth.credentials.invalid",
        );
      }
      suite().clock.advance(windowSeconds * 1000);
    }
    const refused = await checkcredentials(user.password ?? "");
    expectError(refused, 403, "auth.restricted");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(windowSeconds);
    suite().clock.advance(windowSeconds * 1000);
    expectError(await checkcredentials(user.password ?? ""), 403, "auth.restricted");
    await updateUserAuthentication(company, user, { password: "set-by-the-operator-1" });
    expect((await checkcredentials("set-by-the-operator-1")).body.session_state).toBe("authorized");
  });
});

describe("a suspended company", () => {
  it("answers auth.restricted on login, checkpassword and checkcredentials until it is resumed", async () => {
    const company = await createCompany();
    const user = await createUser(company);
    const token = await startLogin(company, user.loginName);
    await updateCompany(company, { suspended: true });
    const login = () =>
      call(company.code, "login", { apiKey: company.apiKey, body: { login_id: user.loginName } });
    expectError(await login(), 403, "auth.restricted");
    expectError(
      await call(company.code, "checkpassword", {
        apiKey: company.apiKey,
        token,
        body: { password: user.password },
      }),
      403,
      "auth.restricted",
    );
    expectError(
      await call(company.code, "checkcredentials", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName, password: user.password },
      }),
      403,
      "auth.restricted",
    );
    await updateCompany(company, { suspended: false });
    expect((await login()).body.session_state).toBe("checkpassword");
  });
});
