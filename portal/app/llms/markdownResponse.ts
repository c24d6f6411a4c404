export function markdownResponse(markdown: string | undefined): Response {
  if (markdown === undefined) return new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(markdown, { headers: { "Content-Type": "text/markdown; charset=utf-8" } });
}
