/**
 * Fault injection for reliability tests: `latency=50-200ms,error5xx=0.05,rate429=0.05,retryAfter=1,reset=0.02`,
 * `capacity=N` (a 429 with Retry-After for any request beyond N at once, as a rate-limiting gateway answers), and
 * `refuseUpload=NAME:STATUS[:DETAIL]` and `refusePath=PATH:STATUS[:DETAIL]` (repeatable; a request to exactly that path is
 * refused, "the platform will not do this to that one record"). Also read from SANDBOX_FAULTS. Token minting is exempt so clients
 * can always authenticate.
 */
export interface Faults {
  latencyMinMs: number;
  latencyMaxMs: number;
  error5xx: number;
  rate429: number;
  retryAfterS: number;
  reset: number;
  /** Requests served at once; more are refused with 429 (0: no limit). */
  capacity?: number;
  /** Uploads refused every time, by file name: "the platform will not take this one file". */
  refuseUploads?: UploadRefusal[];
  /** Requests refused every time, by their exact path (without the query). */
  refusePaths?: PathRefusal[];
}

export interface PathRefusal {
  path: string;
  status: number;
  detail?: string;
}

export interface UploadRefusal {
  /** The uploaded file's name without its folders. */
  fileName: string;
  /** A 4xx status. */
  status: number;
  /** The answer's `detail`; without one the answer is a bare `{}`, as some gateways send. */
  detail?: string;
}

export const NO_FAULTS: Faults = {
  latencyMinMs: 0,
  latencyMaxMs: 0,
  error5xx: 0,
  rate429: 0,
  retryAfterS: 1,
  reset: 0,
};

const rate = (key: string, value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new Error(`Fault '${key}' must be a rate from 0 to 1, got '${value}'`);
  return n;
};

export function parseFaults(spec: string | undefined): Faults {
  const faults = { ...NO_FAULTS };
  if (!spec?.trim()) return faults;
  for (const part of spec.split(',')) {
    const [key, value] = part.split('=').map((s) => s.trim());
    if (!key || value === undefined) throw new Error(`Fault '${part}' must look like name=value`);
    switch (key) {
      case 'latency': {
        const m = /^(\d+)(?:-(\d+))?ms$/.exec(value);
        if (!m) throw new Error(`Fault 'latency' must look like 50-200ms, got '${value}'`);
        faults.latencyMinMs = Number(m[1]);
        faults.latencyMaxMs = Number(m[2] ?? m[1]);
        if (faults.latencyMaxMs < faults.latencyMinMs) throw new Error('Fault latency range is reversed');
        break;
      }
      case 'error5xx':
        faults.error5xx = rate(key, value);
        break;
      case 'rate429':
        faults.rate429 = rate(key, value);
        break;
      case 'reset':
        faults.reset = rate(key, value);
        break;
      case 'retryAfter': {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0) throw new Error(`Fault 'retryAfter' must be whole seconds, got '${value}'`);
        faults.retryAfterS = n;
        break;
      }
      case 'capacity': {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1)
          throw new Error(`Fault 'capacity' must be a whole number from 1, got '${value}'`);
        faults.capacity = n;
        break;
      }
      case 'refuseUpload':
        (faults.refuseUploads ??= []).push(parseRefusal(value));
        break;
      case 'refusePath': {
        const refusal = parseRefusal(value);
        (faults.refusePaths ??= []).push({ ...refusal, path: refusal.fileName });
        break;
      }
      default:
        throw new Error(
          `Unknown fault '${key}' (known: latency, error5xx, rate429, retryAfter, reset, capacity, refuseUpload, refusePath)`,
        );
    }
  }
  return faults;
}

function parseRefusal(value: string): UploadRefusal {
  const m = /^([^:]+):(4\d\d)(?::(.+))?$/.exec(value);
  if (!m) throw new Error(`Fault 'refuseUpload' must look like notes.md:422[:detail], got '${value}'`);
  return { fileName: m[1]!, status: Number(m[2]), ...(m[3] && { detail: m[3] }) };
}

/** The refusal for an upload named `uploadName` (folders and all, as the multipart part names it), if any. */
export function uploadRefusal(faults: Faults, uploadName: string): UploadRefusal | undefined {
  const fileName = uploadName.slice(uploadName.lastIndexOf('/') + 1);
  return faults.refuseUploads?.find((refusal) => refusal.fileName === fileName);
}

export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'reset' }
  | { kind: 'status'; status: number; headers: Record<string, string>; detail: string };

/** What happens to one request; `random` is injectable so tests can force outcomes. */
export function decideFault(faults: Faults, random: () => number = Math.random, path?: string): FaultDecision {
  const refused = path === undefined ? undefined : faults.refusePaths?.find((refusal) => refusal.path === path);
  if (refused) return { kind: 'status', status: refused.status, headers: {}, detail: refused.detail ?? 'Refused' };
  if (faults.reset && random() < faults.reset) return { kind: 'reset' };
  if (faults.rate429 && random() < faults.rate429) {
    return {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': String(faults.retryAfterS) },
      detail: 'Rate limit exceeded',
    };
  }
  if (faults.error5xx && random() < faults.error5xx) {
    const status = [500, 502, 503][Math.floor(random() * 3)]!;
    const detail = { 500: 'Internal server error', 502: 'Bad Gateway', 503: 'Service Unavailable' }[status]!;
    return { kind: 'status', status, headers: {}, detail };
  }
  return { kind: 'none' };
}

/** The answer to a request beyond the server's capacity. */
export function overCapacity(faults: Faults): Extract<FaultDecision, { kind: 'status' }> {
  return {
    kind: 'status',
    status: 429,
    headers: { 'retry-after': String(faults.retryAfterS) },
    detail: 'Rate limit exceeded',
  };
}

export function latencyMs(faults: Faults, random: () => number = Math.random): number {
  if (!faults.latencyMaxMs) return 0;
  return faults.latencyMinMs + Math.round(random() * (faults.latencyMaxMs - faults.latencyMinMs));
}
