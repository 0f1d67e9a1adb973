// Generated from openapi.json by openapi-typescript (`npm run openapi:types`): do not edit.

export interface paths {
    "/pets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List animals
         * @description A page of animals, optionally filtered by availability status. Neither listing is in creation order: with `status` the animals come in a fixed order of their own, the same on every walk whatever the `limit`; without it, in no particular order. Following the pages gives no animal twice, and every animal that existed when the walk began and was neither deleted nor given another status during it; one changed during the walk comes as its page found it, and with `status` one whose status changed may come or not. One written a moment before may not be listed yet. When more follow, the `Link` header with `rel="next"` gives the URL of the next page (it keeps `limit` and `status` and adds the opaque `cursor`); the last page has no such header.
         */
        get: operations["listPets"];
        put?: never;
        /**
         * Add an animal
         * @description Stores a new animal; the service assigns its `id`. `Location` gives the URL of the new animal.
         */
        post: operations["createPet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an animal (deprecated)
         * @deprecated
         * @description One animal, by its identifier. Deprecated: this operation stops working on Thu, 05 Dec 2030 00:00:00 GMT. Use `GET /pets` (`listPets`) with the `status` filter instead. Every answer of the function, errors included, carries `Deprecation`, `Sunset` and a `Link` to the successor.
         */
        get: operations["getPet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Availability status of an animal.
         * @example available
         * @enum {string}
         */
        PetStatus: "available" | "pending" | "sold";
        /**
         * @description An animal, as returned. `status` is absent when it was not given on creation.
         * @example {
         *       "id": 1,
         *       "name": "Rex",
         *       "categoryId": 1,
         *       "status": "available"
         *     }
         */
        Pet: {
            /** Format: int64 */
            id: number;
            name: string;
            /** Format: int64 */
            categoryId: number;
            status?: components["schemas"]["PetStatus"];
        };
        /**
         * @description An animal, as sent on creation. The service assigns `id`; sending it is an error.
         * @example {
         *       "name": "Rex",
         *       "categoryId": 1,
         *       "status": "available"
         *     }
         */
        NewPet: {
            /** @description Text a person can read, stored in Unicode NFC: at least one character that is neither white space nor default-ignorable (Unicode Default_Ignorable_Code_Point: zero-width, format, variation selectors); no control characters (Cc), bidirectional embeddings, overrides or isolates (U+202A–U+202E, U+2066–U+2069), or lone surrogates. */
            name: string;
            /** Format: int64 */
            categoryId: number;
            status?: components["schemas"]["PetStatus"];
        };
        /**
         * @description A page of animals: the body of `listPets`.
         * @example [
         *       {
         *         "id": 1,
         *         "name": "Rex",
         *         "categoryId": 1,
         *         "status": "available"
         *       }
         *     ]
         */
        Pets: components["schemas"]["Pet"][];
        /**
         * @description Machine-readable error code.
         * @example validation_failed
         * @enum {string}
         */
        ErrorCode: "validation_failed" | "invalid_cursor" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "too_many_requests" | "internal_error" | "service_unavailable" | "gateway_timeout";
        /**
         * @description Every error answer: `status` repeats the HTTP status code of the response.
         * @example {
         *       "code": "validation_failed",
         *       "message": "A part of the request the operation reads is invalid; the message names every offending field.",
         *       "status": 400
         *     }
         */
        Error: {
            code: components["schemas"]["ErrorCode"];
            message: string;
            status: number;
        };
    };
    responses: {
        /** @description `not_found`: no such path. Answered by the gateway for a path that no operation serves, before authentication, whatever the `Content-Type`. */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "not_found",
                 *       "message": "No such resource. The API serves /v1/pets and /v1/pets/{petId}.",
                 *       "status": 404
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    code: "not_found";
                    message: string;
                    /** @enum {integer} */
                    status: 404;
                };
            };
        };
        /** @description `method_not_allowed`: the path exists, the method does not; `Allow` lists the methods. Answered by the gateway, before authentication, whatever the `Content-Type`. */
        MethodNotAllowed: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                Vary: components["headers"]["Vary"];
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "method_not_allowed",
                 *       "message": "Method DELETE is not allowed on /v1/pets. Allowed: GET, POST.",
                 *       "status": 405
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    code: "method_not_allowed";
                    message: string;
                    /** @enum {integer} */
                    status: 405;
                };
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /**
         * @description The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.
         * @example c0a8f3e2-5b1d-4e6f-9a7b-3d2c1e0f9a8b
         */
        XRequestId: string;
        /**
         * @description The request headers the answer depends on: `Accept-Encoding` (the gateway compresses a large body for a client that accepts gzip or deflate), and `Origin` on a stage that allows browser origins.
         * @example Accept-Encoding
         */
        Vary: string;
        /**
         * @description The absolute URL of the new animal (`…/v1/pets/{id}`).
         * @example https://your-api-id.execute-api.us-east-1.amazonaws.com/production/v1/pets/1
         */
        Location: string;
        /**
         * @description The authentication challenge (RFC 6750): `Bearer realm="petstore"`, with `error="invalid_token"` when a key was given but is not valid.
         * @example Bearer realm="petstore"
         */
        WWWAuthenticate: string;
        /**
         * @description The methods the path allows.
         * @example GET, POST
         */
        Allow: string;
        /**
         * @description Seconds to wait before retrying.
         * @example 1
         */
        RetryAfter: number;
        /**
         * @description The operation is deprecated, since the date given (RFC 9745).
         * @example @1767225600
         */
        Deprecation: "@1767225600";
        /**
         * @description The operation stops working at this time (RFC 8594).
         * @example Thu, 05 Dec 2030 00:00:00 GMT
         */
        Sunset: "Thu, 05 Dec 2030 00:00:00 GMT";
        /**
         * @description The operation that replaces this one: `<URL>; rel="successor-version"` (RFC 5829).
         * @example <https://your-api-id.execute-api.us-east-1.amazonaws.com/production/v1/pets>; rel="successor-version"
         */
        SuccessorLink: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPets: {
        parameters: {
            query?: {
                /**
                 * @description Maximum number of animals returned, from 1 to 100.
                 * @example 10
                 */
                limit?: number;
                /**
                 * @description Return only the animals with this availability status (case-sensitive).
                 * @example available
                 */
                status?: components["schemas"]["PetStatus"];
                /**
                 * @description Where the page starts: the opaque value from the previous page's `Link: <…>; rel="next"` header. It belongs to the `status` filter it was issued for.
                 * @example eyJ2IjoxLCJzIjoiYXZhaWxhYmxlIiwiYSI6MX0.8Kamjm6JCpuX
                 */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of animals (possibly empty). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description Present when another page follows: `<URL of the next page>; rel="next"` (RFC 8288). The service sends it absolute; resolve it against the request's URL (the example is relative, as a mock server's must be).
                     * @example <pets?limit=10&cursor=eyJ2IjoxLCJzIjoiYXZhaWxhYmxlIiwiYSI6MX0.8Kamjm6JCpuX>; rel="next"
                     */
                    Link?: string;
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 1,
                     *         "name": "Rex",
                     *         "categoryId": 1,
                     *         "status": "available"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Pets"];
                };
            };
            /** @description `validation_failed`: a query parameter (an unknown or repeated one too) is invalid; the message names every offending field. `invalid_cursor`: the `cursor` is damaged, truncated, or belongs to another `status` filter. Retry: no. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "validation_failed",
                     *       "message": "A query parameter (an unknown or repeated one too) is invalid; the message names every offending field.",
                     *       "status": 400
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "validation_failed" | "invalid_cursor";
                        message: string;
                        /** @enum {integer} */
                        status: 400;
                    };
                };
            };
            /** @description `unauthorized`: the API key is missing, malformed, unknown, revoked or expired, or the scheme is not `Bearer`. The stage's web ACL (AWS WAF) can give this status too, before API Gateway: its answer has no `X-Request-Id` (WAF sends static headers only). Retry: no. */
            401: {
                headers: {
                    /**
                     * @description The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.
                     * @example c0a8f3e2-5b1d-4e6f-9a7b-3d2c1e0f9a8b
                     */
                    "X-Request-Id"?: string;
                    Vary: components["headers"]["Vary"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "unauthorized",
                     *       "message": "The API key is missing, malformed, unknown, revoked or expired, or the scheme is not `Bearer`.",
                     *       "status": 401
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "unauthorized";
                        message: string;
                        /** @enum {integer} */
                        status: 401;
                    };
                };
            };
            /** @description `forbidden`: the stage's web ACL blocks the source address: automatically, for a time, after many requests failing the key check, or by the operator. Do not retry. The stage's web ACL (AWS WAF) can give this status too, before API Gateway: its answer has no `X-Request-Id` (WAF sends static headers only). Retry: no. */
            403: {
                headers: {
                    /**
                     * @description The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.
                     * @example c0a8f3e2-5b1d-4e6f-9a7b-3d2c1e0f9a8b
                     */
                    "X-Request-Id"?: string;
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "forbidden",
                     *       "message": "The stage's web ACL blocks the source address: automatically, for a time, after many requests failing the key check, or by the operator. Do not retry.",
                     *       "status": 403
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "forbidden";
                        message: string;
                        /** @enum {integer} */
                        status: 403;
                    };
                };
            };
            /** @description `too_many_requests`: the stage's throttle (API Gateway) or a per-client limit of the stage's web ACL (AWS WAF) refused the request; retry after `Retry-After` seconds. The stage's web ACL (AWS WAF) can give this status too, before API Gateway: its answer has no `X-Request-Id` (WAF sends static headers only). Retry: yes. Wait: `Retry-After` (the window, 60 s); `Retry-After` (1 s). */
            429: {
                headers: {
                    /**
                     * @description The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.
                     * @example c0a8f3e2-5b1d-4e6f-9a7b-3d2c1e0f9a8b
                     */
                    "X-Request-Id"?: string;
                    Vary: components["headers"]["Vary"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "too_many_requests",
                     *       "message": "The stage's throttle (API Gateway) or a per-client limit of the stage's web ACL (AWS WAF) refused the request; retry after `Retry-After` seconds.",
                     *       "status": 429
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "too_many_requests";
                        message: string;
                        /** @enum {integer} */
                        status: 429;
                    };
                };
            };
            /** @description `internal_error`: an unexpected error. It is logged under the request id; quote `X-Request-Id` when reporting it. Retry: yes, once. Wait: no `Retry-After`: 1 s, then doubling, with jitter, a few times. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "internal_error",
                     *       "message": "An unexpected error. It is logged under the request id; quote `X-Request-Id` when reporting it.",
                     *       "status": 500
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "internal_error";
                        message: string;
                        /** @enum {integer} */
                        status: 500;
                    };
                };
            };
            /** @description `service_unavailable`: the data store is throttled, unreachable or too slow to answer in time. Retry after `Retry-After` seconds; a create is safe to retry with an `Idempotency-Key`. Retry: yes. Wait: `Retry-After` (1 or 2 s). */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "service_unavailable",
                     *       "message": "The data store is throttled, unreachable or too slow to answer in time. Retry after `Retry-After` seconds; a create is safe to retry with an `Idempotency-Key`.",
                     *       "status": 503
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "service_unavailable";
                        message: string;
                        /** @enum {integer} */
                        status: 503;
                    };
                };
            };
            /** @description `gateway_timeout`: the function did not answer within the gateway timeout (it is bounded at 10 s, so this should not happen). Retry: yes. Wait: no `Retry-After`: 1 s, then doubling, with jitter, a few times. */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "gateway_timeout",
                     *       "message": "The function did not answer within the gateway timeout (it is bounded at 10 s, so this should not happen).",
                     *       "status": 504
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "gateway_timeout";
                        message: string;
                        /** @enum {integer} */
                        status: 504;
                    };
                };
            };
        };
    };
    createPet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the create safe to retry: every request with the same key and the same body creates the animal once and answers with it; the same key with another body is a 422. 1 to 255 visible ASCII characters other than `"` (a UUID, say), bare or as a quoted string; scoped to the API key, remembered for 24 hours.
                 * @example 6f1c2d9e-8b7a-4c3f-9e2d-1a0b3c4d5e6f
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The animal to add, as a JSON object of at most 64 KiB. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Rex",
                 *       "categoryId": 1,
                 *       "status": "available"
                 *     }
                 */
                "application/json": components["schemas"]["NewPet"];
            };
        };
        responses: {
            /** @description Animal added (or, with an `Idempotency-Key` seen before, the animal that key added); the body carries the assigned `id`. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    Location: components["headers"]["Location"];
                    /** @description Present, as `true`, when the animal was created by an earlier request with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 1,
                     *       "name": "Rex",
                     *       "categoryId": 1,
                     *       "status": "available"
                     *     }
                     */
                    "application/json": components["schemas"]["Pet"];
                };
            };
            /** @description `validation_failed`: the request body or the `Idempotency-Key` header is invalid; the message names every offending field. Query parameters are not read: any sent are ignored. Retry: no. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "validation_failed",
                     *       "message": "The request body or the `Idempotency-Key` header is invalid; the message names every offending field. Query parameters are not read: any sent are ignored.",
                     *       "status": 400
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "validation_failed";
                        message: string;
                        /** @enum {integer} */
                        status: 400;
                    };
                };
            };
            /** @description `unauthorized`: the API key is missing, malformed, unknown, revoked or expired, or the scheme is not `Bearer`. The stage's web ACL (AWS WAF) can give this status too, before API Gateway: its answer has no `X-Request-Id` (WAF sends static headers only). Retry: no. */
            401: {
                headers: {
                    /**
                     * @description The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.
                     * @example c0a8f3e2-5b1d-4e6f-9a7b-3d2c1e0f9a8b
                     */
                    "X-Request-Id"?: string;
                    Vary: components["headers"]["Vary"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "unauthorized",
                     *       "message": "The API key is missing, malformed, unknown, revoked or expired, or the scheme is not `Bearer`.",
                     *       "status": 401
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "unauthorized";
                        message: string;
                        /** @enum {integer} */
                        status: 401;
                    };
                };
            };
            /** @description `forbidden`: the stage's web ACL blocks the source address: automatically, for a time, after many requests failing the key check, or by the operator. Do not retry. The stage's web ACL (AWS WAF) can give this status too, before API Gateway: its answer has no `X-Request-Id` (WAF sends static headers only). Retry: no. */
            403: {
                headers: {
                    /**
                     * @description The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.
                     * @example c0a8f3e2-5b1d-4e6f-9a7b-3d2c1e0f9a8b
                     */
                    "X-Request-Id"?: string;
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "forbidden",
                     *       "message": "The stage's web ACL blocks the source address: automatically, for a time, after many requests failing the key check, or by the operator. Do not retry.",
                     *       "status": 403
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "forbidden";
                        message: string;
                        /** @enum {integer} */
                        status: 403;
                    };
                };
            };
            /** @description `payload_too_large`: the request body is larger than 65536 bytes (64 KiB). Retry: no. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "payload_too_large",
                     *       "message": "The request body is larger than 65536 bytes (64 KiB).",
                     *       "status": 413
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "payload_too_large";
                        message: string;
                        /** @enum {integer} */
                        status: 413;
                    };
                };
            };
            /** @description `unsupported_media_type`: the request body is not declared as JSON (`application/json` or `application/*+json`, UTF-8 or no charset), or is sent compressed (`Content-Encoding`). Retry: no. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "unsupported_media_type",
                     *       "message": "The request body is not declared as JSON (`application/json` or `application/*+json`, UTF-8 or no charset), or is sent compressed (`Content-Encoding`).",
                     *       "status": 415
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "unsupported_media_type";
                        message: string;
                        /** @enum {integer} */
                        status: 415;
                    };
                };
            };
            /** @description `idempotency_key_reused`: the `Idempotency-Key` was already used with another body; nothing was created. Retry: no. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "idempotency_key_reused",
                     *       "message": "The `Idempotency-Key` was already used with another body; nothing was created.",
                     *       "status": 422
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "idempotency_key_reused";
                        message: string;
                        /** @enum {integer} */
                        status: 422;
                    };
                };
            };
            /** @description `too_many_requests`: the stage's throttle (API Gateway) or a per-client limit of the stage's web ACL (AWS WAF) refused the request; retry after `Retry-After` seconds. The stage's web ACL (AWS WAF) can give this status too, before API Gateway: its answer has no `X-Request-Id` (WAF sends static headers only). Retry with the same `Idempotency-Key`: yes; without one: yes: nothing was done. Wait: `Retry-After` (the window, 60 s); `Retry-After` (1 s). */
            429: {
                headers: {
                    /**
                     * @description The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.
                     * @example c0a8f3e2-5b1d-4e6f-9a7b-3d2c1e0f9a8b
                     */
                    "X-Request-Id"?: string;
                    Vary: components["headers"]["Vary"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "too_many_requests",
                     *       "message": "The stage's throttle (API Gateway) or a per-client limit of the stage's web ACL (AWS WAF) refused the request; retry after `Retry-After` seconds.",
                     *       "status": 429
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "too_many_requests";
                        message: string;
                        /** @enum {integer} */
                        status: 429;
                    };
                };
            };
            /** @description `internal_error`: an unexpected error. It is logged under the request id; quote `X-Request-Id` when reporting it. Retry with the same `Idempotency-Key`: yes, once, the same key; without one: no: the pet may be stored; list to check. Wait: no `Retry-After`: 1 s, then doubling, with jitter, a few times. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "internal_error",
                     *       "message": "An unexpected error. It is logged under the request id; quote `X-Request-Id` when reporting it.",
                     *       "status": 500
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "internal_error";
                        message: string;
                        /** @enum {integer} */
                        status: 500;
                    };
                };
            };
            /** @description `service_unavailable`: the data store is throttled, unreachable or too slow to answer in time. Retry after `Retry-After` seconds; a create is safe to retry with an `Idempotency-Key`. Retry with the same `Idempotency-Key`: yes, the same key: the retry answers the stored pet; without one: no: the pet may be stored, and a retry stores another. Wait: `Retry-After` (1 or 2 s). */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "service_unavailable",
                     *       "message": "The data store is throttled, unreachable or too slow to answer in time. Retry after `Retry-After` seconds; a create is safe to retry with an `Idempotency-Key`.",
                     *       "status": 503
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "service_unavailable";
                        message: string;
                        /** @enum {integer} */
                        status: 503;
                    };
                };
            };
            /** @description `gateway_timeout`: the function did not answer within the gateway timeout (it is bounded at 10 s, so this should not happen). Retry with the same `Idempotency-Key`: yes, the same key; without one: no: the request may have taken effect. Wait: no `Retry-After`: 1 s, then doubling, with jitter, a few times. */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "gateway_timeout",
                     *       "message": "The function did not answer within the gateway timeout (it is bounded at 10 s, so this should not happen).",
                     *       "status": 504
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "gateway_timeout";
                        message: string;
                        /** @enum {integer} */
                        status: 504;
                    };
                };
            };
        };
    };
    getPet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the animal.
                 * @example 1
                 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The animal. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["SuccessorLink"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 1,
                     *       "name": "Rex",
                     *       "categoryId": 1,
                     *       "status": "available"
                     *     }
                     */
                    "application/json": components["schemas"]["Pet"];
                };
            };
            /** @description `validation_failed`: the path parameter `petId` is invalid; the message names every offending field. Query parameters are not read: any sent are ignored. Retry: no. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["SuccessorLink"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "validation_failed",
                     *       "message": "The path parameter `petId` is invalid; the message names every offending field. Query parameters are not read: any sent are ignored.",
                     *       "status": 400
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "validation_failed";
                        message: string;
                        /** @enum {integer} */
                        status: 400;
                    };
                };
            };
            /** @description `unauthorized`: the API key is missing, malformed, unknown, revoked or expired, or the scheme is not `Bearer`. The stage's web ACL (AWS WAF) can give this status too, before API Gateway: its answer has no `X-Request-Id` (WAF sends static headers only). Retry: no. */
            401: {
                headers: {
                    /**
                     * @description The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.
                     * @example c0a8f3e2-5b1d-4e6f-9a7b-3d2c1e0f9a8b
                     */
                    "X-Request-Id"?: string;
                    Vary: components["headers"]["Vary"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["SuccessorLink"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "unauthorized",
                     *       "message": "The API key is missing, malformed, unknown, revoked or expired, or the scheme is not `Bearer`.",
                     *       "status": 401
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "unauthorized";
                        message: string;
                        /** @enum {integer} */
                        status: 401;
                    };
                };
            };
            /** @description `forbidden`: the stage's web ACL blocks the source address: automatically, for a time, after many requests failing the key check, or by the operator. Do not retry. The web ACL's answer lacks the operation's own headers. The stage's web ACL (AWS WAF) can give this status too, before API Gateway: its answer has no `X-Request-Id` (WAF sends static headers only). Retry: no. */
            403: {
                headers: {
                    /**
                     * @description The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.
                     * @example c0a8f3e2-5b1d-4e6f-9a7b-3d2c1e0f9a8b
                     */
                    "X-Request-Id"?: string;
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The operation is deprecated, since the date given (RFC 9745).
                     * @example @1767225600
                     */
                    Deprecation?: "@1767225600";
                    /**
                     * @description The operation stops working at this time (RFC 8594).
                     * @example Thu, 05 Dec 2030 00:00:00 GMT
                     */
                    Sunset?: "Thu, 05 Dec 2030 00:00:00 GMT";
                    /**
                     * @description The operation that replaces this one: `<URL>; rel="successor-version"` (RFC 5829).
                     * @example <https://your-api-id.execute-api.us-east-1.amazonaws.com/production/v1/pets>; rel="successor-version"
                     */
                    Link?: string;
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "forbidden",
                     *       "message": "The stage's web ACL blocks the source address: automatically, for a time, after many requests failing the key check, or by the operator. Do not retry.",
                     *       "status": 403
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "forbidden";
                        message: string;
                        /** @enum {integer} */
                        status: 403;
                    };
                };
            };
            /** @description `not_found`: no animal exists for `petId`. Retry: no. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["SuccessorLink"];
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "not_found",
                     *       "message": "No animal exists for `petId`.",
                     *       "status": 404
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "not_found";
                        message: string;
                        /** @enum {integer} */
                        status: 404;
                    };
                };
            };
            /** @description `too_many_requests`: the stage's throttle (API Gateway) or a per-client limit of the stage's web ACL (AWS WAF) refused the request; retry after `Retry-After` seconds. API Gateway's own answer (its throttle) lacks the operation's own headers. The stage's web ACL (AWS WAF) can give this status too, before API Gateway: its answer has no `X-Request-Id` (WAF sends static headers only). Retry: yes. Wait: `Retry-After` (the window, 60 s); `Retry-After` (1 s). */
            429: {
                headers: {
                    /**
                     * @description The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.
                     * @example c0a8f3e2-5b1d-4e6f-9a7b-3d2c1e0f9a8b
                     */
                    "X-Request-Id"?: string;
                    Vary: components["headers"]["Vary"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    /**
                     * @description The operation is deprecated, since the date given (RFC 9745).
                     * @example @1767225600
                     */
                    Deprecation?: "@1767225600";
                    /**
                     * @description The operation stops working at this time (RFC 8594).
                     * @example Thu, 05 Dec 2030 00:00:00 GMT
                     */
                    Sunset?: "Thu, 05 Dec 2030 00:00:00 GMT";
                    /**
                     * @description The operation that replaces this one: `<URL>; rel="successor-version"` (RFC 5829).
                     * @example <https://your-api-id.execute-api.us-east-1.amazonaws.com/production/v1/pets>; rel="successor-version"
                     */
                    Link?: string;
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "too_many_requests",
                     *       "message": "The stage's throttle (API Gateway) or a per-client limit of the stage's web ACL (AWS WAF) refused the request; retry after `Retry-After` seconds.",
                     *       "status": 429
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "too_many_requests";
                        message: string;
                        /** @enum {integer} */
                        status: 429;
                    };
                };
            };
            /** @description `internal_error`: an unexpected error. It is logged under the request id; quote `X-Request-Id` when reporting it. API Gateway's own answer (when a function failed) lacks the operation's own headers. Retry: yes, once. Wait: no `Retry-After`: 1 s, then doubling, with jitter, a few times. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The operation is deprecated, since the date given (RFC 9745).
                     * @example @1767225600
                     */
                    Deprecation?: "@1767225600";
                    /**
                     * @description The operation stops working at this time (RFC 8594).
                     * @example Thu, 05 Dec 2030 00:00:00 GMT
                     */
                    Sunset?: "Thu, 05 Dec 2030 00:00:00 GMT";
                    /**
                     * @description The operation that replaces this one: `<URL>; rel="successor-version"` (RFC 5829).
                     * @example <https://your-api-id.execute-api.us-east-1.amazonaws.com/production/v1/pets>; rel="successor-version"
                     */
                    Link?: string;
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "internal_error",
                     *       "message": "An unexpected error. It is logged under the request id; quote `X-Request-Id` when reporting it.",
                     *       "status": 500
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "internal_error";
                        message: string;
                        /** @enum {integer} */
                        status: 500;
                    };
                };
            };
            /** @description `service_unavailable`: the data store is throttled, unreachable or too slow to answer in time. Retry after `Retry-After` seconds; a create is safe to retry with an `Idempotency-Key`. API Gateway's own answer (when a function could not be invoked) lacks the operation's own headers. Retry: yes. Wait: `Retry-After` (1 or 2 s). */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    /**
                     * @description The operation is deprecated, since the date given (RFC 9745).
                     * @example @1767225600
                     */
                    Deprecation?: "@1767225600";
                    /**
                     * @description The operation stops working at this time (RFC 8594).
                     * @example Thu, 05 Dec 2030 00:00:00 GMT
                     */
                    Sunset?: "Thu, 05 Dec 2030 00:00:00 GMT";
                    /**
                     * @description The operation that replaces this one: `<URL>; rel="successor-version"` (RFC 5829).
                     * @example <https://your-api-id.execute-api.us-east-1.amazonaws.com/production/v1/pets>; rel="successor-version"
                     */
                    Link?: string;
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "service_unavailable",
                     *       "message": "The data store is throttled, unreachable or too slow to answer in time. Retry after `Retry-After` seconds; a create is safe to retry with an `Idempotency-Key`.",
                     *       "status": 503
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "service_unavailable";
                        message: string;
                        /** @enum {integer} */
                        status: 503;
                    };
                };
            };
            /** @description `gateway_timeout`: the function did not answer within the gateway timeout (it is bounded at 10 s, so this should not happen). API Gateway's own answer (its integration timeout) lacks the operation's own headers. Retry: yes. Wait: no `Retry-After`: 1 s, then doubling, with jitter, a few times. */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Vary: components["headers"]["Vary"];
                    /**
                     * @description The operation is deprecated, since the date given (RFC 9745).
                     * @example @1767225600
                     */
                    Deprecation?: "@1767225600";
                    /**
                     * @description The operation stops working at this time (RFC 8594).
                     * @example Thu, 05 Dec 2030 00:00:00 GMT
                     */
                    Sunset?: "Thu, 05 Dec 2030 00:00:00 GMT";
                    /**
                     * @description The operation that replaces this one: `<URL>; rel="successor-version"` (RFC 5829).
                     * @example <https://your-api-id.execute-api.us-east-1.amazonaws.com/production/v1/pets>; rel="successor-version"
                     */
                    Link?: string;
                    /**
                     * @description The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions' answers and the web ACL's 429s. Never a remaining count: the web ACL keeps it.
                     * @example "per-key";q=400;w=60, "per-address";q=400;w=60
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.
                     * @example 400
                     */
                    "X-RateLimit-Limit"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "gateway_timeout",
                     *       "message": "The function did not answer within the gateway timeout (it is bounded at 10 s, so this should not happen).",
                     *       "status": 504
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        code: "gateway_timeout";
                        message: string;
                        /** @enum {integer} */
                        status: 504;
                    };
                };
            };
        };
    };
}
