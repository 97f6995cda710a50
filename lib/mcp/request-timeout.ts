/**
 * The MCP SDK ends any request after 60 s unless told otherwise. Our calls
 * carry their own limits (a method's call timeouts and retries, a server's
 * toolTimeoutMs), so the SDK's is lifted: the largest delay a timer takes.
 */
export const noRequestTimeout = 2 ** 31 - 1;
