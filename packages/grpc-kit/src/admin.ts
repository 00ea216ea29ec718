import { createHash, timingSafeEqual } from "node:crypto";
import { AuthError } from "@auth/errors";
import { Metadata } from "@grpc/grpc-js";

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Refuses a call whose metadata does not carry the deployment's admin token (compared in constant time). */
export function assertAdmin(metadata: Metadata, adminToken: string): void {
  const [header] = metadata.get("authorization");
  const presented = typeof header === "string" ? header.replace(/^Bearer /, "") : "";
  if (!timingSafeEqual(digest(presented), digest(adminToken))) {
    throw new AuthError("admin.unauthenticated", { detail: "this call needs the admin token" });
  }
}

/** The metadata an operator's call carries. */
export function adminMetadata(adminToken: string): Metadata {
  const metadata = new Metadata();
  metadata.set("authorization", `Bearer ${adminToken}`);
  return metadata;
}
