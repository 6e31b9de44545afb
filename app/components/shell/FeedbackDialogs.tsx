import { Badge, Button, Group, Modal, ScrollArea, Table, Text } from "@mantine/core";
import { errorLog, type ErrorLogEntry } from "~/lib/feedback";
import { formatTime } from "~/lib/format";
import { endSession } from "~/lib/request";

/** Spec §8: after 50008/50012/50014 the user may sign in again (token cleared, page reloaded) or stay. */
export function LogoutDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={600}>Confirm logout</Text>} centered size={420} data-testid="logout-confirm">
      <Text size="sm">You have been logged out, you can cancel to stay on this page, or log in again</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          onClick={async () => {
            await endSession();
            window.location.reload();
          }}
        >
          Re-Login
        </Button>
      </Group>
    </Modal>
  );
}

export function ErrorLogDialog({ opened, onClose, entries }: { opened: boolean; onClose: () => void; entries: ErrorLogEntry[] }) {
  return (
    <Modal opened={opened} onClose={onClose} size="xl" title={<Text fw={600}>错误日志</Text>} data-testid="error-log">
      <ScrollArea.Autosize mah={480}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={170}>时间</Table.Th>
              <Table.Th>信息</Table.Th>
              <Table.Th w={200}>页面</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr key={`${entry.time}-${entry.message}`}>
                <Table.Td>{formatTime(entry.time)}</Table.Td>
                <Table.Td>
                  <Badge color="red" variant="light" mr={6}>
                    Error
                  </Badge>
                  {entry.message}
                </Table.Td>
                <Table.Td>{entry.url}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => (errorLog.set([]), onClose())}>
          清空
        </Button>
      </Group>
    </Modal>
  );
}
