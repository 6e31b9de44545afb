import { useState } from "react";

export interface ExportProgress {
  total: number;
  bytes: number;
  done: boolean;
}

/**
 * Downloads an export while showing how far it got. Without JavaScript the link itself downloads the file.
 */
export function useExport() {
  const [progress, setProgress] = useState<ExportProgress | null>(null);

  async function start(event: React.MouseEvent<HTMLAnchorElement>, fileName: string) {
    event.preventDefault();
    const href = event.currentTarget.href;
    const response = await fetch(href);
    if (!response.ok || !response.body) {
      setProgress(null);
      return;
    }
    const total = Number(response.headers.get("X-Total-Count") ?? 0);
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    setProgress({ total, bytes, done: false });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.length;
      setProgress({ total, bytes, done: false });
    }
    const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: response.headers.get("Content-Type") ?? "" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    setProgress({ total, bytes, done: true });
  }

  return { progress, start };
}
