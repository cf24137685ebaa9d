/**
 * PDF to text with pdf.js (through `unpdf`): one string per page. A damaged or encrypted file throws;
 * the crawl records it as that document's error.
 */
export interface PdfText {
  pages: string[];
  text: string;
}

export async function pdfToText(body: Buffer): Promise<PdfText> {
  const { getDocumentProxy, extractText } = await import("unpdf");
  // pdf.js takes ownership of the bytes it is given: hand it a copy.
  const document = await getDocumentProxy(new Uint8Array(body), { verbosity: 0, isEvalSupported: false });
  try {
    const { text } = await extractText(document, { mergePages: false });
    const pages = (text as string[]).map((page) => page.replace(/[ \t]+\n/g, "\n").trim());
    return { pages, text: pages.join("\n\n") };
  } finally {
    await document.destroy().catch(() => undefined);
  }
}
