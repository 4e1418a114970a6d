/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for slots.c: follow mode's slot rule, without ptrace. */
#include "check.h"
#include "slots.h"

/* slots_init's source of CPUs here: an array of sets. */
static void from_sets(const void *sets, unsigned i, struct cpuset *set)
{
	*set = ((const struct cpuset *)sets)[i];
}

/* n slots of the CPU lists given, the whole placement's last. */
static void slots_of(struct slots *s, unsigned n, const char *const *lists)
{
	struct cpuset sets[4];
	struct cpulist_error err;

	for (unsigned i = 0; i <= n; i++) {
		cpulist_zero(&sets[i]);
		EXPECT(!lists[i][0] ||
		       cpulist_parse_list(lists[i], &sets[i], &err) == 0);
	}
	EXPECT(slots_init(s, n, from_sets, sets, &sets[n]) == 0);
}

/* Three slots: CPU 0, CPU 2, CPUs 1 and 3; an empty whole. */
static void three(struct slots *s)
{
	static const char *const lists[] = { "0", "2", "1,3", "" };

	slots_of(s, 3, lists);
}

static unsigned long mask_word(const struct slots *s, unsigned slot)
{
	return *(const unsigned long *)slots_mask(s, slot);
}

TEST(masks_and_text)
{
	struct slots s;

	three(&s);
	EXPECT(s.n == 3);
	EXPECT(s.mask_bytes == sizeof(unsigned long));
	EXPECT(mask_word(&s, 0) == 0x1);
	EXPECT(mask_word(&s, 1) == 0x4);
	EXPECT(mask_word(&s, 2) == 0xa);
	EXPECT(!strcmp(s.text[0], "0"));
	EXPECT(!strcmp(s.text[2], "1,3"));
	EXPECT(!strcmp(s.text[1], "2"));
	slots_free(&s);
	/* The masks are as long as the highest CPU, a slot's or the whole
	 * placement's, needs. */
	slots_of(&s, 1, (const char *const[]){ "0", "0,64" });
	EXPECT(s.mask_bytes == 2 * sizeof(unsigned long));
	EXPECT(!strcmp(s.text[1], "0,64"));
	slots_free(&s);
	slots_of(&s, 2, (const char *const[]){ "0", "65", "0" });
	EXPECT(s.mask_bytes == 2 * sizeof(unsigned long));
	EXPECT(mask_word(&s, 1) == 0 && mask_word(&s, 2) == 0x1);
	slots_free(&s);
}

TEST(first_child_shares_its_parent_slot)
{
	struct slots s;

	three(&s);
	/* The command takes slot 0 (the least loaded, from the start). */
	EXPECT(slots_place(&s, 100, 0, false) == 0);
	/* Its first child runs where it waits: the same slot. */
	EXPECT(slots_place(&s, 101, 100, false) == 0);
	/* A second child while the first lives goes to the least loaded. */
	EXPECT(slots_place(&s, 102, 100, false) == 1);
	EXPECT(slots_place(&s, 103, 100, false) == 2);
	EXPECT(s.load[0] == 2 && s.load[1] == 1 && s.load[2] == 1);
	/* The first child ends: the next child shares the parent's slot. */
	slots_gone(&s, 101);
	EXPECT(s.load[0] == 1);
	EXPECT(slots_place(&s, 104, 100, false) == 0);
	EXPECT(s.given[0] == 3 && s.given[1] == 1 && s.given[2] == 1);
	slots_free(&s);
}

/* A reused tid forgets its old task, which may move other records in the
 * hash: the parent's too. For every parent tid (some share the old
 * task's bucket), its first child shares its slot and the second does
 * not. */
TEST(reused_tid_keeps_the_parent_count)
{
	unsigned bad = 0;

	for (pid_t parent = 101; parent < 5000; parent++) {
		struct slots s;
		int slot;

		three(&s);
		slots_place(&s, 100, 0, false);
		slot = slots_place(&s, parent, 0, false);
		/* 100 ended unseen; its tid is now the parent's child */
		if (slots_place(&s, 100, parent, false) != slot ||
		    slots_place(&s, 99, parent, false) == slot)
			bad++;
		slots_free(&s);
	}
	EXPECT(bad == 0);
}

TEST(threads_and_ties)
{
	struct slots s;

	three(&s);
	EXPECT(slots_place(&s, 100, 0, false) == 0);
	/* Threads never share by parenthood: least loaded, ties in spread
	 * order after the last slot given. */
	EXPECT(slots_place(&s, 200, 100, true) == 1);
	EXPECT(slots_place(&s, 201, 100, true) == 2);
	EXPECT(slots_place(&s, 202, 100, true) == 0);
	EXPECT(slots_place(&s, 203, 100, true) == 1);
	slots_free(&s);
}

TEST(moves_and_reused_tids)
{
	struct slots s;

	three(&s);
	EXPECT(slots_place(&s, 100, 0, false) == 0);
	EXPECT(slots_place(&s, 101, 100, false) == 0);
	EXPECT(slots_place(&s, 102, 100, false) == 1);
	/* A thread of 102 exec'd and took its leader's tid. */
	EXPECT(slots_place(&s, 300, 102, true) == 2);
	slots_move(&s, 300, 102);
	EXPECT(s.load[1] == 0 && s.load[2] == 1);
	/* A tid the kernel reuses is a new task: the old one is forgotten. */
	EXPECT(slots_place(&s, 101, 0, false) == 1);
	EXPECT(s.load[0] == 1);
	slots_gone(&s, 999); /* unknown: nothing happens */
	EXPECT(s.load[0] == 1 && s.load[1] == 1 && s.load[2] == 1);
	slots_free(&s);
}

TEST(the_command_on_the_whole_placement)
{
	static const char *const lists[] = { "0", "1", "0-1" };
	struct slots s;

	slots_of(&s, 2, lists);
	EXPECT(mask_word(&s, 2) == 0x3 && !strcmp(s.text[2], "0-1"));
	EXPECT(slots_whole(&s, 100) == 2);
	EXPECT(slots_slot_of(&s, 100) == 2 && slots_slot_of(&s, 5) == -1);
	/* It counts on no slot; its first child goes to the first slot, a
	 * second one beside it to the least loaded. */
	EXPECT(s.load[0] == 0 && s.load[1] == 0);
	EXPECT(slots_place(&s, 101, 100, false) == 0);
	EXPECT(slots_place(&s, 102, 100, false) == 1);
	/* Sequential children (a shell's) stay on the first slot. */
	slots_gone(&s, 101);
	slots_gone(&s, 102);
	EXPECT(slots_place(&s, 103, 100, false) == 0);
	slots_gone(&s, 103);
	EXPECT(slots_place(&s, 104, 100, false) == 0);
	/* A held or ended command frees nothing it did not hold. */
	slots_gone(&s, 100);
	EXPECT(s.load[0] == 1 && s.load[1] == 0);
	slots_free(&s);
}

int main(void)
{
	RUN(masks_and_text);
	RUN(first_child_shares_its_parent_slot);
	RUN(reused_tid_keeps_the_parent_count);
	RUN(threads_and_ties);
	RUN(moves_and_reused_tids);
	RUN(the_command_on_the_whole_placement);
	return DONE();
}
