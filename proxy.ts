import { type NextRequest, NextResponse } from "next/server";
import { checkHost } from "./lib/security/host-allowlist";
import { embedSecurityHeaders } from "./lib/security/security-headers";

/**
 * Every request passes here first: the app answers only under the names it
 * is really reached by (loopback, plus SWITCHBOARD_ALLOWED_HOSTS), so a web
 * page that re-points its own name at 127.0.0.1 cannot drive the app. A
 * Host that is not a plain host name and port (userinfo, other characters)
 * is a bad request.
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const verdict = checkHost(request.headers.get("host"));
  if (!verdict.ok) return new NextResponse(`Bad request: ${verdict.reason}.\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  if (verdict.allowed) return request.nextUrl.pathname.startsWith("/embed/") ? embedFrame(request) : NextResponse.next();
  return new NextResponse("This Switchboard does not answer under this host name. Add it to SWITCHBOARD_ALLOWED_HOSTS to allow it.\n", {
    status: 421,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

export const config = { matcher: "/:path*" };

/** A chat widget's frame: framed by the widget's allowed origins only (none when it does not exist or is off). */
async function embedFrame(request: NextRequest): Promise<NextResponse> {
  let widgetId = "";
  try {
    widgetId = decodeURIComponent(request.nextUrl.pathname.slice("/embed/".length).split("/")[0] ?? "");
  } catch {
    // Not a valid percent-encoding: no widget has that id, so the frame may be framed by no one.
  }
  const { widgetFrameAncestors } = await import("./lib/embed/widget-frame");
  const response = NextResponse.next();
  for (const header of embedSecurityHeaders(await widgetFrameAncestors(widgetId), { development: process.env.NODE_ENV === "development" })) response.headers.set(header.key, header.value);
  return response;
}
