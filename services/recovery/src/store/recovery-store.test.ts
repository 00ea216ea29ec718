import type { AuthError } from "@auth/errors";
import type { KeyValueStore } from "@auth/kv";
import { keyValueKinds } from "@auth/kv/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecoveryStore } from "./recovery-store.js";

const minute = 60_000;
const ticket = { companyId: "c1", userId: "u1", loginId: "ann@example.com" };
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "redeemed",
    (error: AuthError) => error.code,
  );

describe.each(keyValueKinds())("recovery store on $name", (kind) => {
  let kv: KeyValueStore;
  let now: number;
  let store: RecoveryStore;
  beforeEach(async () => {
    now = Date.now();
    kv = await kind.open({ now: () => now });
    store = new RecoveryStore(kv, { now: () => now });
  });
  afterEach(async () => {
    await kv.close();
  });

  describe("link tickets", () => {
    it("are 256-bit tokens whose hash alone is stored", async () => {
      const token = await store.issueLink(ticket, 30 * minute);
      expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    });

    it("redeem once to the user and login ID they were issued for", async () => {
      const token = await store.issueLink(ticket, 30 * minute);
      expect(await store.redeemLink("c1", token)).toEqual({ userId: "u1", loginId: "ann@example.com" });
      expect(await codeOf(store.redeemLink("c1", token))).toBe("auth.token.invalid");
    });

    it("are auth.token.expired after their lifetime", async () => {
      const token = await store.issueLink(ticket, 30 * minute);
      now += 30 * minute;
      expect(await codeOf(store.redeemLink("c1", token))).toBe("auth.token.expired");
    });

    it("are auth.token.invalid when unknown, forged or of another company", async () => {
      const token = await store.issueLink(ticket, 30 * minute);
      expect(await codeOf(store.redeemLink("c2", token))).toBe("auth.token.invalid");
      expect(await codeOf(store.redeemLink("c1", `${token.slice(0, 22)}${"A".repeat(42)}`))).toBe(
        "auth.token.invalid",
      );
      expect(await codeOf(store.redeemLink("c1", "nonsense"))).toBe("auth.token.invalid");
      expect(await codeOf(store.redeemLink("c1", token))).toBe("redeemed");
    });

    it("redeem once however many requests race", async () => {
      const token = await store.issueLink(ticket, 30 * minute);
      const results = await Promise.all(
        Array.from({ length: 10 }, () => codeOf(store.redeemLink("c1", token))),
      );
      expect(results.filter((r) => r === "redeemed")).toHaveLength(1);
    });

    it("end for one user when revoked (the password changed), and not for others", async () => {
      const first = await store.issueLink(ticket, 30 * minute);
      const second = await store.issueLink(ticket, 30 * minute);
      const used = await store.issueLink(ticket, 30 * minute);
      const others = await store.issueLink({ ...ticket, userId: "u2" }, 30 * minute);
      await store.redeemLink("c1", used);
      expect(await store.revokeUserLinks("c1", "u1")).toBe(2);
      expect(await codeOf(store.redeemLink("c1", first))).toBe("auth.token.invalid");
      expect(await codeOf(store.redeemLink("c1", second))).toBe("auth.token.invalid");
      expect(await codeOf(store.redeemLink("c1", others))).toBe("redeemed");
      expect(await store.revokeUserLinks("c1", "u1")).toBe(0);
    });
  });
});
