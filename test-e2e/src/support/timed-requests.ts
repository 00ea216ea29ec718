/**
 * The requests of a load that runs through a test (outages, a hung or a slow replica): each a JSON
 * POST to one of a gateway's `/v2/auth` endpoints, as a company, aborted when it has had no answer
 * in the test's hang time, and recorded, timed, in a sample the test keeps. What counts as a failure
 * is the test's.
 */

/**
 * A load client's pause between its flows, where the test is what a request meets while a service is
 * out (outages, a hung replica): a few requests a second per client show it as well as a client
 * flat out (2 to 6 errors a freeze at 500 ms, 2 to 8 at 20 ms), and at 20 ms the load took a core
 * for the whole file (docs/performance.md, "Where the end-to-end tests' time goes").
 */
export const pauseBetweenFlowsMs = 500;

/** A POST to `<gateway>/<company code>/v2/auth/<operation>`. */
export interface AuthRequest {
  gateway: string;
  /** Its code names it in the path; its API key goes in x-api-key. */
  company: { code: string; apiKey: string };
  operation: string;
  body: Record<string, unknown>;
  /** Sent as a Bearer token, when there is one. */
  token?: string;
  /** With no answer in this long, the request is aborted (fetch throws a TimeoutError). */
  hangMs: number;
}

/** Posts the request's body as JSON; the answer, or what fetch threw. */
export function postAuth({
  gateway,
  company,
  operation,
  body,
  token,
  hangMs,
}: AuthRequest): Promise<Response> {
  return fetch(`${gateway}/${company.code}/v2/auth/${operation}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": company.apiKey,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(hangMs),
  });
}

/** What a timed request records of itself; a test's sample adds what it needs to tell them apart. */
export interface TimedSample {
  start: number;
  /** 0 while the request is in flight. */
  end: number;
  /** `<HTTP status> <"success" or the error code>`, or what the test records when there is no answer. */
  answer: string;
}

/** What a test makes of a timed request's answer. */
export interface Judged<S extends TimedSample> {
  /** An answer that fails the request: it throws, which ends the test's flow. */
  failed: (sample: S) => boolean;
  /** The sample's answer when fetch threw (or the body was no JSON) before there was one. */
  unanswered: (error: Error) => string;
}

/** No answer: "hang" when the request was aborted after the hang time, "no answer" otherwise. */
export const hangOrNoAnswer = (error: Error) => (error.name === "TimeoutError" ? "hang" : "no answer");

/**
 * One request of a load, timed into `sample` (already among the test's samples, with its start and
 * the answer it shows while in flight): its answer, and its end. Returns the answer's body; throws on
 * an answer that `judged.failed` says failed, or what fetch threw.
 */
export async function timedRequest<S extends TimedSample>(
  sample: S,
  request: AuthRequest,
  judged: Judged<S>,
): Promise<Record<string, unknown>> {
  let answered = false;
  try {
    const response = await postAuth(request);
    const answer = (await response.json()) as Record<string, unknown>;
    sample.answer = `${response.status} ${answer.status === "success" ? "success" : answer.error_code}`;
    answered = true;
    if (judged.failed(sample)) throw new Error(sample.answer);
    return answer;
  } catch (error) {
    if (!answered) sample.answer = judged.unanswered(error as Error);
    throw error;
  } finally {
    sample.end = Date.now();
  }
}
