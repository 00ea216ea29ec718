import "reflect-metadata";
import { webcrypto } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as x509 from "@peculiar/x509";
import { type GrpcServiceName, grpcServices, spiffeId } from "./spiffe.js";
import type { GrpcTransport } from "./transport.js";

/**
 * A private certificate authority for the embedded default and the tests: `npm start` makes one on
 * first start and one certificate per process, so that every gRPC connection is mutual TLS with no
 * step of the developer's. Real deployments mount certificates of their own CA (cert-manager).
 */
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type Key = webcrypto.CryptoKey;

const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const day = 24 * 60 * 60 * 1000;

export interface KeyAndCertificate {
  /** PEM. */
  certificate: string;
  /** PEM, PKCS #8. */
  privateKey: string;
}

export interface CertificateRequest {
  /** Common name, for people reading the certificate. */
  name: string;
  /** The SPIFFE ID the certificate asserts (its one URI SAN). */
  spiffeId: string;
  /** DNS names and IP addresses a server answers on; none for a client only. */
  dnsNames?: string[];
  ipAddresses?: string[];
  days?: number;
}

async function pemOfKey(key: Key): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey("pkcs8", key));
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN PRIVATE KEY-----\n${lines.join("\n")}\n-----END PRIVATE KEY-----\n`;
}

async function keyOfPem(pem: string): Promise<Key> {
  const der = Buffer.from(pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, ""), "base64");
  return webcrypto.subtle.importKey("pkcs8", der, algorithm, true, ["sign"]);
}

const newKeys = () => webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);

export async function createCertificateAuthority(name = "auth-suite dev CA", days = 3650) {
  const keys = await newKeys();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name}`,
    notBefore: new Date(Date.now() - day),
    notAfter: new Date(Date.now() + days * day),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate: certificate.toString("pem"), privateKey: await pemOfKey(keys.privateKey) };
}

/** A certificate for a client, and for a server too when it has DNS names or IP addresses. */
export async function issueCertificate(
  authority: KeyAndCertificate,
  request: CertificateRequest,
): Promise<KeyAndCertificate> {
  const keys = await newKeys();
  const issuer = new x509.X509Certificate(authority.certificate);
  const names: x509.JsonGeneralName[] = [
    { type: "url", value: request.spiffeId },
    ...(request.dnsNames ?? []).map((value) => ({ type: "dns" as const, value })),
    ...(request.ipAddresses ?? []).map((value) => ({ type: "ip" as const, value })),
  ];
  const serves = names.length > 1;
  const certificate = await x509.X509CertificateGenerator.create({
    subject: `CN=${request.name}`,
    issuer: issuer.subject,
    notBefore: new Date(Date.now() - day),
    notAfter: new Date(Date.now() + (request.days ?? 365) * day),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: await keyOfPem(authority.privateKey),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(
        serves
          ? [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]
          : [x509.ExtendedKeyUsage.clientAuth],
      ),
      new x509.SubjectAlternativeNameExtension(names, true),
      await x509.AuthorityKeyIdentifierExtension.create(issuer),
    ],
  });
  return { certificate: certificate.toString("pem"), privateKey: await pemOfKey(keys.privateKey) };
}

/** When a PEM certificate stops being valid. */
export function notAfterOf(certificatePem: string): Date {
  return new x509.X509Certificate(certificatePem).notAfter;
}

/** The files of one process's identity, as its TLS_* variables name them. */
export interface TlsFiles {
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** Who holds a certificate of the suite's private CA: its processes, an operator, and token consumers. */
export type PkiHolder = GrpcServiceName | "gateway" | "operator" | `consumer/${string}`;

const renewWithinMs = 30 * 24 * 60 * 60 * 1000;

function stillGood(certificateFile: string): boolean {
  return (
    existsSync(certificateFile) &&
    notAfterOf(readFileSync(certificateFile, "utf8")).getTime() - Date.now() > renewWithinMs
  );
}

/**
 * The private CA of the embedded default and the tests, in `dir` (made on the first start, kept
 * like the admin token) with a certificate per holder: a server certificate for each gRPC service
 * (its SPIFFE ID, `localhost` and 127.0.0.1), a client one for the others. What is missing, or
 * expires within 30 days, is made again; a new CA makes every certificate again.
 */
export async function ensureDevPki(
  dir: string,
  holders: readonly PkiHolder[],
): Promise<Record<string, TlsFiles>> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const caFile = join(dir, "ca.crt");
  const caKeyFile = join(dir, "ca.key");
  let authority: KeyAndCertificate;
  let renewAll = false;
  if (stillGood(caFile) && existsSync(caKeyFile)) {
    authority = { certificate: readFileSync(caFile, "utf8"), privateKey: readFileSync(caKeyFile, "utf8") };
  } else {
    authority = await createCertificateAuthority();
    writeFileSync(caKeyFile, authority.privateKey, { mode: 0o600 });
    writeFileSync(caFile, authority.certificate, { mode: 0o644 });
    renewAll = true;
  }
  const files: Record<string, TlsFiles> = {};
  for (const holder of holders) {
    const base = holder.replaceAll("/", "-");
    const certFile = join(dir, `${base}.crt`);
    const keyFile = join(dir, `${base}.key`);
    if (renewAll || !stillGood(certFile) || !existsSync(keyFile)) {
      const serves = (grpcServices as readonly string[]).includes(holder);
      const issued = await issueCertificate(authority, {
        name: holder,
        spiffeId: spiffeId(holder),
        ...(serves ? { dnsNames: [holder, "localhost"], ipAddresses: ["127.0.0.1"] } : {}),
      });
      writeFileSync(keyFile, issued.privateKey, { mode: 0o600 });
      writeFileSync(certFile, issued.certificate, { mode: 0o644 });
    }
    files[holder] = { caFile, certFile, keyFile };
  }
  return files;
}

/** The TLS_* variables of a process holding these files. */
export function tlsEnvironment(files: TlsFiles): NodeJS.ProcessEnv {
  return { TLS_CA_FILE: files.caFile, TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.keyFile };
}

/** A client's transport with these files. */
export function mtlsTransport(files: TlsFiles): GrpcTransport {
  return { kind: "mtls", ...files, refreshMs: 60_000 };
}
