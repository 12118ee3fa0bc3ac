export type { McpServerOptions } from './create-mcp-server.js';
export { createMcpServer } from './create-mcp-server.js';
export type { HttpServeOptions, McpHttpServer } from './serve-http.js';
export { DEFAULT_MAX_BODY_BYTES, serveHttp } from './serve-http.js';
export type { McpStdioServer, StdioServeOptions } from './serve-stdio.js';
export { serveStdio } from './serve-stdio.js';
