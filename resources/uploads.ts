/** Spec §5 and §9: pictures are JPEG or PNG under 2 MB, with these two messages. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const FILE_MAX_BYTES = 100 * 1024 * 1024;
export const IMAGE_TYPES = ["image/jpeg", "image/png"];
/** Issue 35: a licence scan may be a PDF up to 10 MB, recognised by its content as pictures are. */
export const PDF_MAX_BYTES = 10 * 1024 * 1024;
export const uploadMessages = {
  imageType: "只能支持上传 JPG 和 PNG 格式的图片",
  imageSize: "图片大小不能超过 2M",
  pdfType: "只能上传完整的 PDF 文件（文件内容不是 PDF 或已损坏）",
  pdfSize: "PDF 文件大小不能超过 10M",
  fileSize: "文件大小不能超过 100M",
  missing: "请选择要上传的文件",
  reference: (label: string) => `${label}只能是本站上传的文件`,
  kinds: (label: string, kinds: readonly UploadKind[]) => `${label}只能是 ${kinds.map((k) => uploadKindNames[k]).join("或 ")}`,
} as const;

/**
 * What the upload endpoint takes (`?kind=`): each kind's size rule and message. Pictures and PDFs are recognised by
 * their content (server/modules/sys/files.ts), never by their name or the browser's claim; a field names the kinds
 * it accepts (`FieldDef.uploads`, pictures only when it says nothing).
 */
export type UploadKind = "image" | "pdf" | "file";
export const uploadKinds: Record<UploadKind, { maxBytes: number; tooBig: (size: number) => boolean; sizeMessage: string }> = {
  image: { maxBytes: IMAGE_MAX_BYTES, tooBig: (size) => size >= IMAGE_MAX_BYTES, sizeMessage: uploadMessages.imageSize },
  pdf: { maxBytes: PDF_MAX_BYTES, tooBig: (size) => size > PDF_MAX_BYTES, sizeMessage: uploadMessages.pdfSize },
  file: { maxBytes: FILE_MAX_BYTES, tooBig: (size) => size >= FILE_MAX_BYTES, sizeMessage: uploadMessages.fileSize },
};
const uploadKindNames: Record<UploadKind, string> = { image: "JPG/PNG 图片", pdf: "PDF 文件", file: "文件" };

/** The kinds an image or file field accepts. */
export function acceptedUploads(field: { type: string; uploads?: readonly UploadKind[] }): readonly UploadKind[] {
  return field.uploads ?? [field.type === "file" ? "file" : "image"];
}

/**
 * What an image or file field holds: the address of a file uploaded here (decision 011), never an address of its
 * own choosing (`javascript:`, another host, `data:`), so the database holds nothing a page could be led astray by.
 */
export const UPLOAD_REFERENCE = /^\/api\/v1\/sys\/file\/view\?id=(\d{1,16})$/;
export const uploadReference = (id: number) => `/api/v1/sys/file/view?id=${id}`;
