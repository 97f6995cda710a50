import { NextResponse, type NextRequest } from "next/server";
import { publicAction } from "@/lib/auth";
import { appOrigin, clientMetadataDocumentUrl, oauthCallbackUrl } from "@/lib/mcp";

/**
 * Switchboard's OAuth client ID metadata document: on an https origin its
 * URL is the client id an authorization server that supports such
 * documents fetches, instead of a dynamic registration. Public by design
 * (it names the client and its callback, nothing secret).
 */
export async function GET(request: NextRequest) {
  publicAction("the OAuth client ID metadata document: authorization servers fetch it; it names the client and its callback, nothing secret");
  const origin = appOrigin();
  const clientId = origin ? clientMetadataDocumentUrl(origin) : undefined;
  if (!origin || !clientId) return NextResponse.json({ error: "client ID metadata documents are served on an https origin only" }, { status: 404 });
  return NextResponse.json(
    {
      client_id: clientId,
      client_name: "Switchboard",
      client_uri: origin,
      redirect_uris: [oauthCallbackUrl(origin)],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
    { headers: { "Cache-Control": "public, max-age=3600" } },
  );
}
