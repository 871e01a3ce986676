export function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p className="error" role="alert">
      {error}
    </p>
  ) : null;
}

export function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
