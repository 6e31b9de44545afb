import { Button, FileButton, Group, Image, Input, Stack, Text } from "@mantine/core";
import { IconUpload } from "~/components/icons";
import { useState } from "react";
import { IMAGE_MAX_BYTES, IMAGE_TYPES, uploadMessages } from "../../../resources/uploads";

/** Checks a picture in the browser (spec §5 messages), uploads it, and keeps its URL in a hidden input. */
export function ImageUpload({
  name,
  label,
  defaultValue,
  error,
  kind = "image",
}: {
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
  kind?: "image" | "file";
}) {
  const [value, setValue] = useState(defaultValue);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function choose(file: File | null) {
    if (!file) return;
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
      else setValue(envelope.data.url);
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
        {value && kind === "image" && <Image src={value} alt={label} w={96} h={96} fit="cover" radius="sm" />}
        {value && kind === "file" && (
          <Text size="sm" component="a" href={value}>
            已上传文件
          </Text>
        )}
        <Group gap="xs">
          <FileButton onChange={choose} accept={kind === "image" ? "image/png,image/jpeg" : undefined}>
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
        {kind === "image" && (
          <Text size="xs" c="dimmed">
            JPG 或 PNG，小于 2M
          </Text>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
