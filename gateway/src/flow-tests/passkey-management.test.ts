import { randomUUID } from "node:crypto";
import type { ApiResponse } from "@auth/testing/api";
import type { SoftAuthenticator } from "@auth/testing/soft-authenticator";
import { beforeAll, describe, expect, it } from "vitest";
import { freshAuthenticationSeconds } from "../steps/factor-change.js";
import {
  addPasskey,
  call,
  createCompany,
  createUser,
  enrolPasskey,
  expectError,
  expectSuccess,
  newAuthenticator,
  noticesTo,
  passkeySettings,
  type TestCompany,
  type TestUser,
  useInProcessSuite,
} from "../testing/fixtures.js";

const suite = useInProcessSuite();

type RequestOptions = Parameters<SoftAuthenticator["assert"]>[0];

interface PasskeyJson {
  id: string;
  name: string;
  kind: string;
  transports: string[];
  user_verified: boolean;
  created_at: string;
  last_used_at?: string;
  clone_suspected: boolean;
}

/**
 * docs/api-contract.md, "Passkeys": the signed-in user adds, lists, names and removes passkeys and
 * gets new backup codes, under the rule of docs/security.md, "Changing a factor".
 */
describe("the signed-in user's passkeys and backup codes (docs/api-contract.md, Passkeys)", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany({ passkeys: passkeySettings });
  });
  const post = (operation: string, body: Record<string, unknown>, token?: string, target = company) =>
    call(target.code, operation, { apiKey: target.apiKey, body, token });
  /** A password login of a user without a second factor: an authorized token. */
  async function signIn(user: TestUser, target = company): Promise<string> {
    const signedIn = await post(
      "checkcredentials",
      { login_id: user.loginName, password: user.password },
      undefined,
      target,
    );
    expect(signedIn.body.session_state, JSON.stringify(signedIn.body)).toBe("authorized");
    return String(signedIn.body.session_token);
  }
  /** A login by the user's passkey (level 2): an authorized token. */
  async function signInWithPasskey(user: TestUser, authenticator: SoftAuthenticator): Promise<string> {
    const login = await post("login", { login_id: user.loginName });
    const checked = await post(
      "checkpasskey",
      { credential: authenticator.assert(login.body.passkey_options as RequestOptions) },
      String(login.body.session_token),
    );
    expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
    return String(checked.body.session_token);
  }
  const passkeysOf = async (token: string) =>
    (await post("passkeys/list", {}, token)).body.passkeys as PasskeyJson[];

  describe("auth/passkeys/enrol and auth/passkeys/confirm", () => {
    it("add a passkey from a fresh login: the user is told, the user's other sessions end, and a user without backup codes gets the first set with it", async () => {
      const user = await createUser(company);
      const other = await signIn(user);
      const token = await signIn(user);
      const enrolled = await post("passkeys/enrol", {}, token);
      expectSuccess(enrolled, ["options"]);
      expect(enrolled.body.options).toMatchObject({
        rp: { id: "localhost" },
        attestation: "none",
        authenticatorSelection: { residentKey: "required" },
      });
      const noticesBefore = noticesTo(company.id, user.email).length;
      const authenticator = newAuthenticator({ backedUp: true });
      const confirmed = await post(
        "passkeys/confirm",
        {
          credential: authenticator.register(
            enrolled.body.options as Parameters<SoftAuthenticator["register"]>[0],
          ),
          name: "Laptop",
        },
        token,
      );
      expectSuccess(confirmed, ["passkey", "sessions_ended", "backup_codes"]);
      expect(confirmed.body).toMatchObject({
        passkey: { name: "Laptop", kind: "synced", user_verified: true, clone_suspected: false },
        sessions_ended: 1,
      });
      // docs/decisions.md, "Passkeys": this session may not generate codes now, so they come with it.
      expect(confirmed.body.backup_codes).toHaveLength(10);
      expectError(await post("backupcodes/generate", {}, token), 403, "auth.reauthentication.required");
      // identity tells the user once the answer is given.
      await expect
        .poll(() => noticesTo(company.id, user.email).slice(noticesBefore).sort(), { timeout: 20_000 })
        .toEqual([expect.stringMatching(/passkey was added/), expect.stringMatching(/backup codes/)]);
      expectError(await post("sessions", {}, other), 401, "auth.token.invalid");
      // This session goes on, and the next passkey, the user having backup codes, comes with none.
      const fresh = await signInWithPasskey(user, authenticator);
      const second = await addPasskey(company, fresh, newAuthenticator());
      expectSuccess(second, ["passkey", "sessions_ended"]);
      expect(second.body).toMatchObject({ passkey: { name: "Passkey", kind: "device-bound" } });
    });

    it("refuse an answer made for an origin the company does not list, or for no options of this session: 401 auth.passkey.invalid, nothing added", async () => {
      const user = await createUser(company);
      const token = await signIn(user);
      const authenticator = newAuthenticator();
      const enrolled = await post("passkeys/enrol", {}, token);
      const options = enrolled.body.options as Parameters<SoftAuthenticator["register"]>[0];
      expectError(
        await post(
          "passkeys/confirm",
          { credential: authenticator.register(options, { origin: "http://localhost:9999" }) },
          token,
        ),
        401,
        "auth.passkey.invalid",
      );
      // The challenge served that answer: the same options again find none.
      expectError(
        await post("passkeys/confirm", { credential: authenticator.register(options) }, token),
        401,
        "auth.passkey.invalid",
      );
      expect(await passkeysOf(token)).toEqual([]);
    });

    it("ask for a fresh authentication: 10 minutes after the login, every management endpoint answers 403 auth.reauthentication.required (ASVS 5.0 7.5.1)", async () => {
      const user = await createUser(company);
      const token = await signIn(user);
      const enrolled = await post("passkeys/enrol", {}, token);
      suite().clock.advance((freshAuthenticationSeconds + 1) * 1000);
      const credential = newAuthenticator().register(
        enrolled.body.options as Parameters<SoftAuthenticator["register"]>[0],
      );
      const calls: Array<[string, Record<string, unknown>]> = [
        ["passkeys/enrol", {}],
        ["passkeys/confirm", { credential }],
        ["passkeys/list", {}],
        ["passkeys/rename", { passkey_id: randomUUID(), name: "n" }],
        ["passkeys/remove", { passkey_id: randomUUID() }],
        ["backupcodes/generate", {}],
      ];
      for (const [operation, body] of calls) {
        expectError(await post(operation, body, token), 403, "auth.reauthentication.required");
      }
    });

    it("need an authorized session: a login under way is 409 auth.session.invalid", async () => {
      const user = await createUser(company);
      const login = await post("login", { login_id: user.loginName });
      expectError(
        await post("passkeys/enrol", {}, String(login.body.session_token)),
        409,
        "auth.session.invalid",
      );
    });

    it("answer 401 auth.passkey.invalid while the company has no relying party", async () => {
      const off = await createCompany();
      const user = await createUser(off);
      const token = await signIn(user, off);
      for (const operation of ["passkeys/enrol", "passkeys/list"]) {
        expectError(await post(operation, {}, token, off), 401, "auth.passkey.invalid");
      }
    });
  });

  describe("auth/passkeys/list, auth/passkeys/rename and auth/passkeys/remove", () => {
    it("list the user's passkeys oldest first, name one, and remove one, which logins then no longer offer", async () => {
      const user = await createUser(company);
      const laptop = newAuthenticator({ backedUp: true });
      const key = newAuthenticator();
      await enrolPasskey(company, user, laptop);
      const token = await signInWithPasskey(user, laptop);
      expectSuccess(await addPasskey(company, token, key, "Security key"), ["passkey", "sessions_ended"]);
      const listed = await post("passkeys/list", {}, token);
      expectSuccess(listed, ["passkeys"]);
      const [synced, bound] = listed.body.passkeys as PasskeyJson[];
      expect(synced).toMatchObject({ name: "Passkey", kind: "synced", clone_suspected: false });
      expect(synced?.last_used_at).toBeDefined();
      expect(bound).toMatchObject({ name: "Security key", kind: "device-bound", transports: ["internal"] });
      expect(bound?.last_used_at).toBeUndefined();

      expectSuccess(await post("passkeys/rename", { passkey_id: synced?.id, name: "Laptop" }, token), []);
      expectSuccess(await post("passkeys/remove", { passkey_id: bound?.id }, token), []);
      expect((await passkeysOf(token)).map((passkey) => passkey.name)).toEqual(["Laptop"]);
      const login = await post("login", { login_id: user.loginName });
      expect((login.body.passkey_options as RequestOptions).allowCredentials).toEqual([
        expect.objectContaining({ id: laptop.credentialIds[0] }),
      ]);
    });

    it("answer 404 auth.passkey.notfound for another user's passkey as for an unknown one, and change nothing", async () => {
      const user = await createUser(company);
      const other = await createUser(company);
      const authenticator = newAuthenticator();
      await enrolPasskey(company, other, authenticator);
      const theirs = await signInWithPasskey(other, authenticator);
      const [their] = await passkeysOf(theirs);
      const mine = await signIn(user);
      for (const passkeyId of [String(their?.id), randomUUID()]) {
        expectError(
          await post("passkeys/rename", { passkey_id: passkeyId, name: "Mine" }, mine),
          404,
          "auth.passkey.notfound",
        );
        expectError(
          await post("passkeys/remove", { passkey_id: passkeyId }, mine),
          404,
          "auth.passkey.notfound",
        );
      }
      expect(await passkeysOf(theirs)).toEqual([expect.objectContaining({ id: their?.id, name: "Passkey" })]);
    });
  });

  describe("auth/backupcodes/generate", () => {
    it("gives a new set of 10, shown once, and the set before no longer works", async () => {
      const user = await createUser(company);
      const authenticator = newAuthenticator();
      await enrolPasskey(company, user, authenticator);
      const token = await signInWithPasskey(user, authenticator);
      const first = await post("backupcodes/generate", {}, token);
      expectSuccess(first, ["backup_codes"]);
      const old = first.body.backup_codes as string[];
      expect(old).toHaveLength(10);
      const next = (await post("backupcodes/generate", {}, token)).body.backup_codes as string[];
      expect(next).toHaveLength(10);
      expect(next.filter((code) => old.includes(code))).toEqual([]);
      /** The password, then a backup code in checkotp. */
      const withCode = async (backupCode: string | undefined): Promise<ApiResponse> => {
        const atOtp = await post("checkcredentials", { login_id: user.loginName, password: user.password });
        return post("checkotp", { backup_code: backupCode }, String(atOtp.body.session_token));
      };
      expectError(await withCode(old[0]), 401, "auth.backupcode.invalid");
      expect((await withCode(next[0])).body.session_state).toBe("authorized");
    });
  });
});
