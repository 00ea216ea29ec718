import { createHash, timingSafeEqual } from "node:crypto";
import { AuthError } from "@auth/errors";
import { Metadata } from "@grpc/grpc-js";

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/**
 * The SHA-256 of an admin token, in hex: what the services that only compare the token are given
 * (`ADMIN_TOKEN_SHA256`), so that none of them holds a value an operator could present
 * (docs/operations.md, "The admin token").
 */
export function hashAdminToken(adminToken: string): string {
  return digest(adminToken).toString("hex");
}

/** The 32 bytes of a hex SHA-256; throws on anything else (a plain token given by mistake). */
export function adminTokenDigestOf(adminTokenSha256: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(adminTokenSha256)) {
    throw new Error(
      'the admin token\'s SHA-256 must be 64 hex digits (docs/operations.md, "The admin token")',
    );
  }
  return Buffer.from(adminTokenSha256, "hex");
}

/**
 * Refuses a call whose metadata does not carry the admin token whose SHA-256 (hex) the service
 * holds: the presented token's SHA-256 is compared with it in constant time.
 */
export function assertAdmin(metadata: Metadata, adminTokenSha256: string): void {
  const expected = adminTokenDigestOf(adminTokenSha256);
  const [header] = metadata.get("authorization");
  const presented = typeof header === "string" ? header.replace(/^Bearer /, "") : "";
  if (!timingSafeEqual(digest(presented), expected)) {
    throw new AuthError("admin.unauthenticated", { detail: "this call needs the admin token" });
  }
}

/** The metadata an operator's call carries: the plain token, which only operators (authctl) hold. */
export function adminMetadata(adminToken: string): Metadata {
  const metadata = new Metadata();
  metadata.set("authorization", `Bearer ${adminToken}`);
  return metadata;
}
