/** Spec §5 and §9: pictures are JPEG or PNG under 2 MB, with these two messages. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const FILE_MAX_BYTES = 100 * 1024 * 1024;
export const IMAGE_TYPES = ["image/jpeg", "image/png"];
export const uploadMessages = {
  imageType: "只能支持上传 JPG 和 PNG 格式的图片",
  imageSize: "图片大小不能超过 2M",
  fileSize: "文件大小不能超过 100M",
  missing: "请选择要上传的文件",
  reference: (label: string) => `${label}只能是本站上传的文件`,
} as const;

/**
 * What an image or file field holds: the address of a file uploaded here (decision 011), never an address of its
 * own choosing (`javascript:`, another host, `data:`), so the database holds nothing a page could be led astray by.
 */
export const UPLOAD_REFERENCE = /^\/api\/v1\/sys\/file\/view\?id=(\d{1,16})$/;
export const uploadReference = (id: number) => `/api/v1/sys/file/view?id=${id}`;
