import { Button, FileButton, Group, Image, Input, Stack, Text } from "@mantine/core";
import { IconFileText, IconUpload } from "~/components/icons";
import { useState } from "react";
import { IMAGE_MAX_BYTES, IMAGE_TYPES, uploadKinds, uploadMessages, type UploadKind } from "../../../resources/uploads";

/**
 * Checks a picture in the browser (spec §5 messages), uploads it, and keeps its URL in a hidden input. A field that
 * also takes PDFs sends a file that says it is one as a PDF; the server then checks its content either way.
 */
export function ImageUpload({
  name,
  label,
  defaultValue,
  error,
  kinds = ["image"],
}: {
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
  kinds?: readonly UploadKind[];
}) {
  const [value, setValue] = useState(defaultValue);
  // A stored value of a field that takes PDFs may be either; only a picture just uploaded is known to be one.
  const [shownAs, setShownAs] = useState<"image" | "link">(kinds.length === 1 && kinds[0] === "image" ? "image" : "link");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pdf = kinds.includes("pdf");

  async function choose(file: File | null) {
    if (!file) return;
    const kind: UploadKind = pdf && (file.type === "application/pdf" || /\.pdf$/i.test(file.name)) ? "pdf" : kinds[0];
    if (kind === "pdf" && uploadKinds.pdf.tooBig(file.size)) return setProblem(uploadMessages.pdfSize);
    if (kind === "image") {
      if (!IMAGE_TYPES.includes(file.type)) return setProblem(uploadMessages.imageType);
      if (file.size >= IMAGE_MAX_BYTES) return setProblem(uploadMessages.imageSize);
    }
    setProblem(null);
    setBusy(true);
    const body = new FormData();
    body.append("file", file);
    try {
      const response = await fetch(`/api/v1/sys/file/upload?kind=${kind}`, { method: "POST", body });
      const envelope = (await response.json()) as { status: number; message: string; data: { url: string } };
      if (envelope.status !== 200) setProblem(envelope.message || "Error");
      else {
        setValue(envelope.data.url);
        setShownAs(kind === "image" ? "image" : "link");
      }
    } catch (e) {
      setProblem(e instanceof Error ? e.message : "Error");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Input.Wrapper label={label} error={problem ?? error}>
      <input type="hidden" name={name} value={value} />
      <Stack gap={6} mt={4}>
        {value && shownAs === "image" && <Image src={value} alt={label} w={96} h={96} fit="cover" radius="sm" />}
        {value && shownAs === "link" && (
          <Group gap={4}>
            <IconFileText size={16} />
            <Text size="sm" component="a" href={value} target={pdf ? "_blank" : undefined} rel="noopener">
              {pdf ? "查看已上传的文件" : "已上传文件"}
            </Text>
          </Group>
        )}
        <Group gap="xs">
          <FileButton onChange={choose} accept={accept(kinds)}>
            {(props) => (
              <Button {...props} variant="default" size="xs" leftSection={<IconUpload size={14} />} loading={busy}>
                {value ? "重新上传" : "上传"}
              </Button>
            )}
          </FileButton>
          {value && (
            <Button variant="subtle" color="gray" size="xs" onClick={() => setValue("")}>
              移除
            </Button>
          )}
        </Group>
        {kinds.includes("image") && (
          <Text size="xs" c="dimmed">
            {pdf ? "JPG 或 PNG 小于 2M，或 PDF 不超过 10M" : "JPG 或 PNG，小于 2M"}
          </Text>
        )}
      </Stack>
    </Input.Wrapper>
  );
}

function accept(kinds: readonly UploadKind[]): string | undefined {
  if (kinds.includes("file")) return undefined;
  return [kinds.includes("image") ? "image/png,image/jpeg" : "", kinds.includes("pdf") ? "application/pdf,.pdf" : ""].filter(Boolean).join(",");
}
