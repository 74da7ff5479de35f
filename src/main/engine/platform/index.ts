/** The platform client: typed API calls per profile, retries, errors in the platform's language, "test connection". */
export {
  createPlatformClient,
  jsonText,
  type CallOptions,
  carriesKeysSafely,
  unwrap,
  apiErrorFrom,
  authorizationHeader,
  joinUrl,
  normaliseBaseUrl,
  type PlatformApi,
  type PlatformClient,
  type UntypedPlatformClient,
  type PlatformConnection,
  type PlatformPaths,
  type PlatformRequestOptions,
} from './client';
export {
  ApiError,
  CATALOGUE_MESSAGES,
  InsecureAddressError,
  NetworkError,
  REQUEST_ABORTED_MESSAGE,
  RequestAbortedError,
  TimeoutError,
  TlsError,
  UnexpectedResponseError,
  classifyFetchFailure,
  drfIssues,
  extractDetail,
  isTlsErrorCode,
  isTransportError,
  type ApiErrorInit,
  type FieldIssue,
  type TransportError,
} from './errors';
export {
  DEFAULT_RETRY_POLICY,
  DEFAULT_TIMEOUT_MS,
  createFetch,
  sendRequest,
  type BodyFactory,
  type HttpOptions,
  type OutgoingRequest,
  type PerCallOptions,
  type PlatformFetch,
  type RetryEvent,
  type Sleep,
} from './http';
export { OPERATIONS, retryPolicyOf, type DeclaredPath } from './operations';
export {
  backoffDelay,
  classifyFailure,
  classifyStatus,
  isTransient,
  OVERLOAD_STATUSES,
  parseRetryAfter,
  retryDelay,
  retriesStatus,
  wasNotTaken,
  type FailureClass,
  type RetryPolicy,
  type RetryRule,
  type RetryTiming,
} from './retry';
export { multipartBuffer, toMultipart, type MultipartBuffer } from './multipart';
export { testConnection, probeUrl, PROBE_TIMEOUT_MS, type ProbeConnection, type ProbeOptions } from './probe';
export { redactHeaders, scrubSecrets, REDACTED, type Logger } from './redact';
