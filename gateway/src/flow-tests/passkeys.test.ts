import type { ApiResponse } from "@auth/testing/api";
import type { SoftAuthenticator } from "@auth/testing/soft-authenticator";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  compared,
  createCompany,
  createDisclaimer,
  createUser,
  enrolPasskey,
  expectError,
  expectSuccess,
  newAuthenticator,
  passkeySettings,
  smsTo,
  type TestCompany,
  type TestUser,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

type RequestOptions = Parameters<SoftAuthenticator["assert"]>[0];

/** The options of an answer's `passkey_options`. */
function optionsOf(answer: ApiResponse): RequestOptions {
  expect(answer.body.passkey_options, JSON.stringify(answer.body)).toBeDefined();
  return answer.body.passkey_options as RequestOptions;
}

/** The answers of a run, by code ("success" for a success). */
const tally = (answers: ApiResponse[]) =>
  answers.reduce<Record<string, number>>((counts, answer) => {
    const key = answer.body.status === "success" ? "success" : String(answer.body.error_code);
    counts[key] = (counts[key] ?? 0) + 1;
    return counts;
  }, {});

/**
 * docs/decisions.md, "Passkeys": a passkey takes the places of the factors it proves, in the spec's
 * states. The company's relying party is the embedded demo's (localhost, the login page's origin).
 */
describe("passkeys at login (docs/decisions.md, Passkeys)", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany({ passkeys: passkeySettings });
  });
  const post = (operation: string, body: Record<string, unknown>, token?: string, target = company) =>
    call(target.code, operation, { apiKey: target.apiKey, body, token });
  /** The authentication the session of this token shows in the user's session list. */
  async function authenticationOf(token: string, target = company) {
    const listed = await post("sessions", {}, token, target);
    const sessions = listed.body.sessions as Array<{ current: boolean; authentication: unknown }>;
    return sessions.find((session) => session.current)?.authentication;
  }
  /** A user with a passkey of a new authenticator of these options. */
  async function userWithPasskey(options: Parameters<typeof newAuthenticator>[0] = {}, target = company) {
    const user = await createUser(target);
    const authenticator = newAuthenticator(options);
    await enrolPasskey(target, user, authenticator);
    return { user, authenticator };
  }
  /** The right password, past which a user with a passkey is in checkotp. */
  async function pastThePassword(user: TestUser, target = company): Promise<ApiResponse> {
    const login = await post("login", { login_id: user.loginName }, undefined, target);
    const checked = await post(
      "checkpassword",
      { password: user.password },
      String(login.body.session_token),
      target,
    );
    expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("checkotp");
    return checked;
  }

  describe("auth/login", () => {
    it("offers a user's passkey in checkpassword where the company lets it replace the password: the user's credentials, user verification required", async () => {
      const { user, authenticator } = await userWithPasskey();
      const login = await post("login", { login_id: user.loginName });
      expectSuccess(login, [
        "session_token",
        "session_state",
        "disclaimers_required",
        "captcha_required",
        "passkey_options",
      ]);
      expect(login.body.session_state).toBe("checkpassword");
      expect(optionsOf(login)).toMatchObject({
        rpId: "localhost",
        userVerification: "required",
        allowCredentials: [{ id: authenticator.credentialIds[0], type: "public-key" }],
      });
    });

    it("offers none to a user without a passkey, nor where the company does not let a passkey replace the password", async () => {
      const plain = await createUser(company);
      const login = await post("login", { login_id: plain.loginName });
      expectSuccess(login, ["session_token", "session_state", "disclaimers_required", "captcha_required"]);
      const strict = await createCompany({ passkeys: { ...passkeySettings, allowPasswordless: false } });
      const { user } = await userWithPasskey({}, strict);
      const atPassword = await post("login", { login_id: user.loginName }, undefined, strict);
      expect(atPassword.body).toMatchObject({ session_state: "checkpassword" });
      expect(atPassword.body.passkey_options).toBeUndefined();
      // The passkey is the user's second factor there.
      await pastThePassword(user, strict);
    });
  });

  describe("auth/checkpasskey in checkpassword: a user-verified passkey for both factors", () => {
    it("authorizes without the password and without an SMS, at level 2 (amr hwk, mfa) for a device-bound passkey", async () => {
      const { user, authenticator } = await userWithPasskey();
      const login = await post("login", { login_id: user.loginName });
      const checked = await post(
        "checkpasskey",
        { credential: authenticator.assert(optionsOf(login)) },
        String(login.body.session_token),
      );
      expectSuccess(checked, ["session_token", "session_state", "profile_mnemocode"]);
      expect(checked.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
      expect(smsTo(company.id, user.phone)).toEqual([]);
      expect(await authenticationOf(String(checked.body.session_token))).toMatchObject({
        level: 2,
        amr: ["hwk", "mfa"],
        factors: [{ kind: "passkey", amr: "hwk" }],
      });
    });

    it("tells a synced passkey by amr swk", async () => {
      const { user, authenticator } = await userWithPasskey({ backedUp: true });
      const login = await post("login", { login_id: user.loginName });
      const checked = await post(
        "checkpasskey",
        { credential: authenticator.assert(optionsOf(login)) },
        String(login.body.session_token),
      );
      expect(await authenticationOf(String(checked.body.session_token))).toMatchObject({
        level: 2,
        amr: ["swk", "mfa"],
      });
    });

    it("refuses a passkey that did not verify the user with 401 auth.passkey.invalid: the session stays for the password", async () => {
      const { user, authenticator } = await userWithPasskey();
      const login = await post("login", { login_id: user.loginName });
      const token = String(login.body.session_token);
      const unverified = authenticator.assert(optionsOf(login), { userVerified: false });
      expectError(await post("checkpasskey", { credential: unverified }, token), 401, "auth.passkey.invalid");
      const checked = await post("checkpassword", { password: user.password }, token);
      expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("checkotp");
    });

    it("refuses an assertion made for an origin the company does not list, and one for another RP ID", async () => {
      const { user, authenticator } = await userWithPasskey();
      for (const overrides of [{ origin: "http://localhost:9999" }, { rpId: "example.com" }]) {
        const login = await post("login", { login_id: user.loginName });
        const credential = authenticator.assert(optionsOf(login), overrides);
        expectError(
          await post("checkpasskey", { credential }, String(login.body.session_token)),
          401,
          "auth.passkey.invalid",
        );
      }
    });

    it("needs the disclaimers first, as checkpassword does: a missing code is 403 auth.disclaimer.invalid and takes no challenge, then they ride along", async () => {
      const target = await createCompany({ passkeys: passkeySettings });
      const { user, authenticator } = await userWithPasskey({}, target);
      const terms = await createDisclaimer(target, "terms");
      const login = await post("login", { login_id: user.loginName }, undefined, target);
      expect(login.body.disclaimers_required).toEqual([terms]);
      const token = String(login.body.session_token);
      const credential = authenticator.assert(optionsOf(login));
      expectError(await post("checkpasskey", { credential }, token, target), 403, "auth.disclaimer.invalid", [
        "disclaimers_required",
      ]);
      const checked = await post(
        "checkpasskey",
        { credential, accept_disclaimers: ["terms"] },
        token,
        target,
      );
      expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
      // Accepted: the next login owes none.
      const again = await post("login", { login_id: user.loginName }, undefined, target);
      expect(again.body.disclaimers_required).toEqual([]);
    });

    it("answers a body without an assertion's shape with 400 request.validation.failed", async () => {
      const { user } = await userWithPasskey();
      const token = String((await post("login", { login_id: user.loginName })).body.session_token);
      for (const credential of [undefined, "a string", { id: "x", type: "password" }]) {
        expectError(await post("checkpasskey", { credential }, token), 400, "request.validation.failed");
      }
    });
  });

  describe("auth/checkpasskey in checkotp: the passkey as the second factor", () => {
    it("checkpassword's answer into checkotp carries passkey_options and no SMS goes out; the passkey authorizes at level 2 (pwd, hwk, mfa)", async () => {
      const { user, authenticator } = await userWithPasskey();
      const atOtp = await pastThePassword(user);
      expectSuccess(atOtp, ["session_token", "session_state", "passkey_options"]);
      expect(smsTo(company.id, user.phone)).toEqual([]);
      expect(optionsOf(atOtp)).toMatchObject({
        allowCredentials: [{ id: authenticator.credentialIds[0] }],
      });
      const checked = await post(
        "checkpasskey",
        { credential: authenticator.assert(optionsOf(atOtp)) },
        String(atOtp.body.session_token),
      );
      expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
      expect(await authenticationOf(String(checked.body.session_token))).toMatchObject({
        level: 2,
        amr: ["pwd", "hwk", "mfa"],
      });
    });

    it("checkcredentials' answer into checkotp carries passkey_options too", async () => {
      const { user, authenticator } = await userWithPasskey();
      const atOtp = await post("checkcredentials", { login_id: user.loginName, password: user.password });
      expect(atOtp.body.session_state).toBe("checkotp");
      const checked = await post(
        "checkpasskey",
        { credential: authenticator.assert(optionsOf(atOtp)) },
        String(atOtp.body.session_token),
      );
      expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
    });

    it("accepts a security key that does not verify the user here only: after the password it authorizes, in checkpassword it is refused", async () => {
      const { user, authenticator } = await userWithPasskey({ userVerified: false });
      const login = await post("login", { login_id: user.loginName });
      expectError(
        await post(
          "checkpasskey",
          { credential: authenticator.assert(optionsOf(login)) },
          String(login.body.session_token),
        ),
        401,
        "auth.passkey.invalid",
      );
      const atOtp = await pastThePassword(user);
      const checked = await post(
        "checkpasskey",
        { credential: authenticator.assert(optionsOf(atOtp)) },
        String(atOtp.body.session_token),
      );
      expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
      expect(await authenticationOf(String(checked.body.session_token))).toMatchObject({
        level: 2,
        amr: ["pwd", "hwk", "mfa"],
      });
    });

    it("renewotp issues a new challenge: the one before no longer serves, and an assertion, right or wrong, spends the session's challenge", async () => {
      const { user, authenticator } = await userWithPasskey();
      const atOtp = await pastThePassword(user);
      const token = String(atOtp.body.session_token);
      const renewed = await post("renewotp", {}, token);
      expectSuccess(renewed, ["passkey_options"]);
      expect(optionsOf(renewed).challenge).not.toBe(optionsOf(atOtp).challenge);
      expectError(
        await post("checkpasskey", { credential: authenticator.assert(optionsOf(atOtp)) }, token),
        401,
        "auth.passkey.invalid",
      );
      // The refused assertion took the new challenge with it: a challenge serves one assertion.
      expectError(
        await post("checkpasskey", { credential: authenticator.assert(optionsOf(renewed)) }, token),
        401,
        "auth.passkey.invalid",
      );
      const again = await post("renewotp", {}, token);
      const checked = await post(
        "checkpasskey",
        { credential: authenticator.assert(optionsOf(again)) },
        token,
      );
      expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
    });

    it("refuses another authenticator's passkey, which is not the user's", async () => {
      const { user } = await userWithPasskey();
      const other = await userWithPasskey();
      const atOtp = await pastThePassword(user);
      const theirs = other.authenticator.assert({ ...optionsOf(atOtp), allowCredentials: [] });
      expectError(
        await post("checkpasskey", { credential: theirs }, String(atOtp.body.session_token)),
        401,
        "auth.passkey.invalid",
      );
    });
  });

  describe("auth/passkeys/start: a login without a login ID", () => {
    it("starts a session in checkpassword with options that list no credential; a user-verified passkey gives it its user, authorized at level 2", async () => {
      const { user, authenticator } = await userWithPasskey();
      const started = await post("passkeys/start", {});
      expectSuccess(started, ["session_token", "session_state", "passkey_options"]);
      expect(started.body.session_state).toBe("checkpassword");
      expect(optionsOf(started).allowCredentials ?? []).toEqual([]);
      expect(optionsOf(started).userVerification).toBe("required");
      const checked = await post(
        "checkpasskey",
        { credential: authenticator.assert(optionsOf(started)) },
        String(started.body.session_token),
      );
      expectSuccess(checked, ["session_token", "session_state", "profile_mnemocode"]);
      expect(checked.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
      const token = String(checked.body.session_token);
      expect(await authenticationOf(token)).toMatchObject({ level: 2, amr: ["hwk", "mfa"] });
      // The session is the user's: it is listed among the user's sessions.
      const listed = await post("sessions", {}, token);
      expect((listed.body.sessions as unknown[]).length).toBeGreaterThan(0);
    });

    it("refuses a passkey that did not verify the user, and answers auth/checkpassword with 409 auth.session.invalid: there is no user whose password to check", async () => {
      const { user, authenticator } = await userWithPasskey();
      const started = await post("passkeys/start", {});
      const token = String(started.body.session_token);
      expectError(
        await post(
          "checkpasskey",
          { credential: authenticator.assert(optionsOf(started), { userVerified: false }) },
          token,
        ),
        401,
        "auth.passkey.invalid",
      );
      expectError(
        await post("checkpassword", { password: user.password }, token),
        409,
        "auth.session.invalid",
      );
    });

    it("leads a user who owes disclaimers to acceptdisclaimers with them, as an OAuth login (spec 4.7, 4.8)", async () => {
      const target = await createCompany({ passkeys: passkeySettings });
      const { authenticator } = await userWithPasskey({}, target);
      const terms = await createDisclaimer(target, "terms");
      const started = await post("passkeys/start", {}, undefined, target);
      const checked = await post(
        "checkpasskey",
        { credential: authenticator.assert(optionsOf(started)) },
        String(started.body.session_token),
        target,
      );
      expectSuccess(checked, ["session_token", "session_state", "disclaimers_required"]);
      expect(checked.body).toMatchObject({
        session_state: "acceptdisclaimers",
        disclaimers_required: [terms],
      });
      const accepted = await post(
        "acceptdisclaimers",
        { accept_disclaimers: ["terms"] },
        String(checked.body.session_token),
        target,
      );
      expect(accepted.body.session_state, JSON.stringify(accepted.body)).toBe("authorized");
    });

    it("answers 401 auth.passkey.invalid where the company does not let a passkey replace the password, or has no passkeys", async () => {
      const strict = await createCompany({ passkeys: { ...passkeySettings, allowPasswordless: false } });
      const off = await createCompany();
      for (const target of [strict, off]) {
        expectError(await post("passkeys/start", {}, undefined, target), 401, "auth.passkey.invalid");
      }
    });
  });

  describe("a passkey's challenge and budget (docs/security.md, Guesses per hour at one user)", () => {
    it("of 50 assertions at once with one challenge, one is verified and authorizes; the others spend nothing", async () => {
      const { user, authenticator } = await userWithPasskey();
      const login = await post("login", { login_id: user.loginName });
      const token = String(login.body.session_token);
      const options = optionsOf(login);
      const assertions = Array.from({ length: 50 }, () => authenticator.assert(options));
      const before = await compared("passkey");
      const answers = await Promise.all(
        assertions.map((credential) => post("checkpasskey", { credential }, token)),
      );
      const counts = tally(answers);
      expect(counts.success, JSON.stringify(counts)).toBe(1);
      // The losers found the challenge taken, the session busy or the token moved on, or (on a slow
      // machine) waited past their time for the login ID's turn (docs/operations.md, "A burst at one user").
      for (const code of Object.keys(counts)) {
        expect([
          "success",
          "auth.passkey.invalid",
          "auth.token.invalid",
          "request.ratelimit.exceeded",
        ]).toContain(code);
      }
      expect(answers.find((answer) => answer.body.status === "success")?.body.session_state).toBe(
        "authorized",
      );
      expect((await compared("passkey")) - before).toBe(1);
    });

    it("spends the user's budget of passkeys on each failed assertion: after 10, auth.restricted even for a right one, and the password's budget is untouched", async () => {
      const { user, authenticator } = await userWithPasskey();
      const before = await compared("passkey");
      for (let round = 0; round < 10; round += 1) {
        const login = await post("login", { login_id: user.loginName });
        const wrong = authenticator.assert(optionsOf(login), { origin: "http://localhost:9999" });
        expectError(
          await post("checkpasskey", { credential: wrong }, String(login.body.session_token)),
          401,
          "auth.passkey.invalid",
        );
      }
      expect((await compared("passkey")) - before).toBe(10);
      const login = await post("login", { login_id: user.loginName });
      expect(login.body).toMatchObject({ session_state: "checkpassword", captcha_required: false });
      const right = await post(
        "checkpasskey",
        { credential: authenticator.assert(optionsOf(login)) },
        String(login.body.session_token),
      );
      expectError(right, 403, "auth.restricted");
      expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await compared("passkey")) - before).toBe(10);
      // The password is another budget: it still leads to the second factor.
      const checked = await post(
        "checkpassword",
        { password: user.password },
        String(login.body.session_token),
      );
      expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("checkotp");
    });
  });
});
