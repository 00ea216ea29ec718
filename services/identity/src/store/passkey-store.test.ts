import { randomBytes } from "node:crypto";
import { systemOrigin } from "@auth/events";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { Factor } from "@auth/proto/events";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IdentitySchema } from "../schema.js";
import type { IdentityStore } from "./identity-store.js";
import { createTestCompany, newUserRow, openIdentityStore } from "./identity-store.testing.js";
import type { NewPasskey } from "./passkey-store.js";

describe.each(databaseKinds())("the users' passkeys on $name", (kind) => {
  let database: OpenedDatabase<IdentitySchema>;
  let store: IdentityStore;
  let companyId: string;
  const newUser = async () => (await store.createUser(newUserRow(companyId), systemOrigin)).id;
  const newPasskey = (userId: string, overrides: Partial<NewPasskey> = {}): NewPasskey => ({
    companyId,
    userId,
    credentialId: randomBytes(16).toString("base64url"),
    publicKey: new Uint8Array(randomBytes(77)),
    signCount: 0,
    transports: ["internal"],
    backedUp: false,
    userVerified: false,
    name: "Passkey",
    ...overrides,
  });
  const added = async (passkey: NewPasskey) => {
    const row = await store.passkeys.add(passkey, systemOrigin);
    if (!row) throw new Error("not added");
    return row;
  };
  /** A check of the passkey as a second factor, by the suite. */
  const checkOf = (row: { userId: string; id: string }) => ({
    origin: systemOrigin,
    companyId,
    userId: row.userId,
    factor: Factor.PASSKEY,
    first: false,
    passkeyId: row.id,
  });
  const assertion = (signCount: number, userVerified = true) => ({
    signCount,
    userVerified,
    backedUp: false,
  });

  beforeAll(async () => {
    ({ database, store } = await openIdentityStore(kind));
    companyId = await createTestCompany(store, "Passkeys");
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database.close();
  });

  it("keeps a credential's public key as given, and finds it by its id in the company", async () => {
    const passkey = newPasskey(await newUser());
    const row = await added(passkey);
    const found = await store.passkeys.findByCredentialId(companyId, passkey.credentialId);
    expect(found?.id).toBe(row.id);
    expect(Buffer.from(found?.publicKey ?? [])).toEqual(Buffer.from(passkey.publicKey));
    expect(
      await store.passkeys.findByCredentialId(await createTestCompany(store, "Other"), passkey.credentialId),
    ).toBe(undefined);
  });

  it("refuses a credential id already registered in the company (undefined), whoever's", async () => {
    const passkey = newPasskey(await newUser());
    await added(passkey);
    expect(await store.passkeys.add({ ...passkey, userId: await newUser() }, systemOrigin)).toBeUndefined();
  });

  it("tells in the user's row whether the user has a passkey that is not clone-suspect", async () => {
    const userId = await newUser();
    expect((await store.findUser(companyId, userId))?.hasPasskey).toBe(false);
    const row = await added(newPasskey(userId));
    expect((await store.findUser(companyId, userId))?.hasPasskey).toBe(true);
    await store.passkeys.markCloneSuspected(companyId, row.id);
    expect((await store.findUser(companyId, userId))?.hasPasskey).toBe(false);
  });

  it("records an assertion only with a greater counter, or with both counters zero", async () => {
    const row = await added(newPasskey(await newUser()));
    expect(await store.passkeys.recordAssertion(checkOf(row), assertion(0))).toBe(true);
    expect(await store.passkeys.recordAssertion(checkOf(row), assertion(3))).toBe(true);
    expect(await store.passkeys.recordAssertion(checkOf(row), assertion(3))).toBe(false);
    expect(await store.passkeys.recordAssertion(checkOf(row), assertion(2))).toBe(false);
    expect(await store.passkeys.recordAssertion(checkOf(row), assertion(0))).toBe(false);
    expect(await store.passkeys.recordAssertion(checkOf(row), assertion(4))).toBe(true);
    const [stored] = await store.passkeys.listOfUser(companyId, row.userId);
    expect(stored).toMatchObject({ signCount: 4, userVerified: true });
    expect(stored?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("moves the counter for one of parallel assertions with one counter value", async () => {
    const row = await added(newPasskey(await newUser(), { signCount: 1 }));
    const results = await Promise.all(
      Array.from({ length: 20 }, () => store.passkeys.recordAssertion(checkOf(row), assertion(2))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("remembers that the user was once verified, whatever later assertions say", async () => {
    const row = await added(newPasskey(await newUser()));
    await store.passkeys.recordAssertion(checkOf(row), assertion(1, true));
    await store.passkeys.recordAssertion(checkOf(row), assertion(2, false));
    expect((await store.passkeys.listOfUser(companyId, row.userId))[0]?.userVerified).toBe(true);
  });

  it("marks a clone suspect once, and records no assertion of it after", async () => {
    const row = await added(newPasskey(await newUser()));
    const marks = await Promise.all(
      [1, 2, 3].map(() => store.passkeys.markCloneSuspected(companyId, row.id)),
    );
    expect(marks.filter(Boolean)).toHaveLength(1);
    expect(await store.passkeys.recordAssertion(checkOf(row), assertion(10))).toBe(false);
  });

  it("renames and removes only the user's own passkey", async () => {
    const [userId, otherId] = [await newUser(), await newUser()];
    const row = await added(newPasskey(userId));
    expect(await store.passkeys.rename(companyId, otherId, row.id, "Mine now", systemOrigin)).toBe(false);
    expect(await store.passkeys.remove(companyId, otherId, row.id, systemOrigin)).toBe(false);
    expect(await store.passkeys.rename(companyId, userId, row.id, "Phone", systemOrigin)).toBe(true);
    expect((await store.passkeys.listOfUser(companyId, userId))[0]?.name).toBe("Phone");
    expect(await store.passkeys.remove(companyId, userId, row.id, systemOrigin)).toBe(true);
    expect(await store.passkeys.listOfUser(companyId, userId)).toEqual([]);
  });
});
