/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for launcher.c: --share's syntax, and the part each rank takes
 * under what the launchers were seen to set (tests/fixtures/launchers), on
 * machines a 2-CPU test machine is not: several packages, SMT, many
 * ranks. */
#include <stdlib.h>

#include "check.h"
#include "launcher.h"

/* 2 packages x 2 L3 x 2 cores x 2 PUs: core c has CPUs c and c+8, so
 * package 0 is CPUs 0-3,8-11 and package 1 is 4-7,12-15. */
static struct topology *machine(void)
{
	return build_machine(2, 2, 2, 2, true);
}

static struct launcher_spec spec(const char *text)
{
	struct launcher_spec s;
	struct launcher_error e;

	EXPECT(launcher_parse(text, &s, &e) == 0);
	return s;
}

/* Decide for the environment env (NULL-terminated) and mask ("" for
 * another machine); returns the error code. */
static enum launcher_err decide(const char *text, char *const *env,
				const char *mask, struct launcher_decision *d,
				struct launcher_error *e)
{
	struct topology *t = machine();
	struct launcher_spec s = spec(text);
	struct cpuset m = set_of(mask);
	int r = launcher_decide(&s, env, t, *mask ? &m : NULL, d, e);

	tree_free(t);
	return r < 0 ? e->code : LAUNCHER_OK;
}

/* The part, index and count a rank takes, as "index/count". */
#define EXPECT_SHARE(d, idx, cnt)                                              \
	do {                                                                   \
		if ((d)->index != (idx) || (d)->count != (cnt)) {              \
			check_current_failed = 1;                              \
			printf("# %s:%d: share %lu/%lu, want %lu/%lu\n",       \
			       __FILE__, __LINE__, (d)->index, (d)->count,     \
			       (unsigned long)(idx), (unsigned long)(cnt));    \
		}                                                              \
	} while (0)

TEST(parse_forms)
{
	struct launcher_spec s;
	struct launcher_error e;

	EXPECT(launcher_parse("3/8", &s, &e) == 0);
	EXPECT(s.mode == LAUNCHER_SHARE_GIVEN && s.index == 3 && s.count == 8);
	EXPECT(launcher_parse("auto", &s, &e) == 0 &&
	       s.mode == LAUNCHER_SHARE_AUTO);
	EXPECT(launcher_parse("auto/4", &s, &e) == 0);
	EXPECT(s.mode == LAUNCHER_SHARE_AUTO_N && s.count == 4);
	EXPECT(launcher_parse("4294967295/4294967295", &s, &e) == 0);
	EXPECT(s.index == 4294967295UL);
}

TEST(parse_errors)
{
	static const char *const syntax[] = {
		"",	  "x",	   "1/",    "/2",   "-1/4", "1/-4",  "auto/",
		"auto/x", "1/2/3", "autox", "1 /2", "+1/2", "0x1/2", "auto/2/2"
	};
	struct launcher_spec s;
	struct launcher_error e;

	for (size_t i = 0; i < sizeof(syntax) / sizeof(syntax[0]); i++) {
		EXPECT(launcher_parse(syntax[i], &s, &e) < 0);
		EXPECT(e.code == LAUNCHER_E_SYNTAX);
	}
	/* 33 digits once planned part 1. */
	EXPECT(launcher_parse("100000000000000000000000000000001/2", &s, &e) <
	       0);
	EXPECT(e.code == LAUNCHER_E_TOO_LARGE && !strcmp(e.var, "I"));
	EXPECT(launcher_parse("1/4294967296", &s, &e) < 0);
	EXPECT(e.code == LAUNCHER_E_TOO_LARGE && !strcmp(e.var, "N"));
	EXPECT(launcher_parse("auto/18446744073709551617", &s, &e) < 0);
	EXPECT(e.code == LAUNCHER_E_TOO_LARGE && !strcmp(e.var, "N"));
	/* Bad syntax is reported before a number too large. */
	EXPECT(launcher_parse("x/18446744073709551617", &s, &e) < 0);
	EXPECT(e.code == LAUNCHER_E_SYNTAX);
	EXPECT(launcher_parse("18446744073709551617/x", &s, &e) < 0);
	EXPECT(e.code == LAUNCHER_E_SYNTAX);
	EXPECT(launcher_parse("0/4", &s, &e) < 0 && e.code == LAUNCHER_E_RANGE);
	EXPECT(e.number == 0 && e.number2 == 4);
	EXPECT(launcher_parse("5/4", &s, &e) < 0 && e.code == LAUNCHER_E_RANGE);
	EXPECT(launcher_parse("auto/0", &s, &e) < 0);
	EXPECT(e.code == LAUNCHER_E_RANGE && e.number2 == 0);
}

/* srun -n 2 on 2 CPUs: each task bound to its core, a mask per task. */
TEST(slurm_default_binding_is_each_tasks_own)
{
	char *env[] = { "SLURM_JOB_ID=1",
			"SLURM_STEP_ID=0",
			"SLURM_LOCALID=1",
			"SLURM_NODEID=0",
			"SLURM_STEP_TASKS_PER_NODE=2",
			"SLURM_TASKS_PER_NODE=2",
			"SLURM_CPU_BIND_TYPE=mask_cpu:",
			"SLURM_CPU_BIND_LIST=0x1,0x2",
			NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", env, "1", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_SLURM_STEP &&
	       d.binding == LAUNCHER_BINDING_LIST);
	EXPECT(d.rank == 1 && d.ranks == 2 && d.entry == 1);
	EXPECT_SHARE(&d, 0, 1);
	EXPECT_SET(&d.mask, "1");
}

/* --cpu-bind=sockets and ldoms: equal entries, so the tasks split. */
TEST(slurm_equal_entries_share)
{
	char *env[] = { "SLURM_STEP_ID=0",
			"SLURM_LOCALID=1",
			"SLURM_STEP_TASKS_PER_NODE=2",
			"SLURM_CPU_BIND_TYPE=mask_cpu:",
			"SLURM_CPU_BIND_LIST=0x3,0x3",
			NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", env, "0-1", &d, &e) == LAUNCHER_OK);
	EXPECT_SHARE(&d, 1, 2);
}

/* A list shorter than the tasks repeats; "E*n" stands for n of E. Two
 * packages, five tasks: 0,1 and 4 on package 0, 2 and 3 on package 1. */
TEST(slurm_list_repeats)
{
	char *env[] = { "SLURM_STEP_ID=3",
			"SLURM_LOCALID=4",
			"SLURM_NODEID=1",
			"SLURM_STEP_TASKS_PER_NODE=3,5(x2)",
			"SLURM_CPU_BIND_TYPE=sockets,mask_cpu:",
			"SLURM_CPU_BIND_LIST=0xf0f*2,0xf0f0*2",
			NULL };
	char *env3[] = { "SLURM_STEP_ID=3",
			 "SLURM_LOCALID=3",
			 "SLURM_NODEID=2",
			 "SLURM_STEP_TASKS_PER_NODE=3,5(x2)",
			 "SLURM_CPU_BIND_TYPE=sockets,mask_cpu:",
			 "SLURM_CPU_BIND_LIST=0xf0f*2,0xf0f0*2",
			 NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", env, "0-3,8-11", &d, &e) == LAUNCHER_OK);
	EXPECT(d.ranks == 5 && d.entry == 0);
	EXPECT_SHARE(&d, 2, 3);
	EXPECT(decide("auto", env3, "4-7,12-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.entry == 3);
	EXPECT_SHARE(&d, 1, 2);
}

/* srun -n 3 --overcommit on one CPU: all three on 0x1, one core. */
TEST(slurm_overcommit_wraps)
{
	char *env[] = { "SLURM_STEP_ID=0",
			"SLURM_LOCALID=2",
			"SLURM_STEP_TASKS_PER_NODE=3",
			"SLURM_CPU_BIND_TYPE=mask_cpu:",
			"SLURM_CPU_BIND_LIST=0x1",
			NULL };
	struct topology *t = machine();
	struct launcher_spec s = spec("auto");
	struct launcher_decision d;
	struct launcher_error e;
	struct cpuset mask = set_of("0,8"), part;

	if (launcher_decide(&s, env, t, &mask, &d, &e) < 0) {
		EXPECT(!"decided");
		tree_free(t);
		return;
	}
	EXPECT_SHARE(&d, 2, 3);
	/* Core 0, its two PUs: one core, so all three run on it. */
	EXPECT(launcher_part(t, &d, &d.mask, false, &part, &e) == 0);
	EXPECT(d.wrapped && d.units == 1);
	EXPECT_SET(&part, "0,8");
	/* With --smt, two PUs: the third task takes the first again. */
	EXPECT(launcher_part(t, &d, &d.mask, true, &part, &e) == 0);
	EXPECT(d.wrapped && d.units == 2);
	EXPECT_SET(&part, "0");
	tree_free(t);
}

/* --cpu-bind=none, or no task plugin: the tasks split the mask. */
TEST(slurm_unbound_tasks_split)
{
	char *none[] = { "SLURM_STEPID=0",
			 "SLURM_LOCALID=3",
			 "SLURM_STEP_TASKS_PER_NODE=4",
			 "SLURM_CPU_BIND_TYPE=none",
			 "SLURM_CPU_BIND_LIST=",
			 NULL };
	char *plain[] = { "SLURM_STEP_ID=0", "SLURM_LOCALID=3",
			  "SLURM_STEP_TASKS_PER_NODE=4", NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", none, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_NONE);
	EXPECT_SHARE(&d, 3, 4);
	EXPECT(decide("auto", plain, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_NONE);
	EXPECT_SHARE(&d, 3, 4);
}

/* srun -n 1 in a --ntasks-per-node=2 job: the step has one task. */
TEST(slurm_step_count_before_the_jobs)
{
	char *env[] = {
		"SLURM_JOB_ID=7",	    "SLURM_STEP_ID=0",
		"SLURM_LOCALID=0",	    "SLURM_NTASKS_PER_NODE=2",
		"SLURM_TASKS_PER_NODE=2",   "SLURM_STEP_TASKS_PER_NODE=1",
		"SLURM_CPU_BIND_TYPE=none", NULL
	};
	char *older[] = { "SLURM_STEP_ID=0", "SLURM_LOCALID=0",
			  "SLURM_NTASKS_PER_NODE=2", "SLURM_TASKS_PER_NODE=1",
			  NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", env, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT_SHARE(&d, 0, 1);
	/* No step count: the task count srun set, never the job's
	 * request. */
	EXPECT(decide("auto", older, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT_SHARE(&d, 0, 1);
}

/* A batch script (SLURM_LOCALID=0, no step) or an salloc shell. */
TEST(slurm_job_is_alone)
{
	char *batch[] = { "SLURM_JOB_ID=14",
			  "SLURM_JOBID=14",
			  "SLURM_LOCALID=0",
			  "SLURM_NODEID=0",
			  "SLURM_TASKS_PER_NODE=2",
			  "SLURM_NTASKS=2",
			  NULL };
	char *salloc[] = { "SLURM_JOBID=15", "SLURM_TASKS_PER_NODE=2", NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", batch, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_SLURM_JOB &&
	       d.binding == LAUNCHER_BINDING_ALONE);
	EXPECT_SHARE(&d, 0, 1);
	EXPECT(decide("auto", salloc, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_SLURM_JOB);
	EXPECT_SHARE(&d, 0, 1);
}

TEST(slurm_rank_and_ldom_types)
{
	char *rank[] = { "SLURM_STEP_ID=0", "SLURM_LOCALID=1",
			 "SLURM_STEP_TASKS_PER_NODE=4",
			 "SLURM_CPU_BIND_TYPE=rank", NULL };
	char *ldom[] = { "SLURM_STEP_ID=0", "SLURM_LOCALID=3",
			 "SLURM_STEP_TASKS_PER_NODE=4",
			 "SLURM_CPU_BIND_TYPE=rank_ldom", NULL };
	char *map[] = { "SLURM_STEP_ID=0",
			"SLURM_LOCALID=2",
			"SLURM_STEP_TASKS_PER_NODE=4",
			"SLURM_CPU_BIND_TYPE=map_ldom:",
			"SLURM_CPU_BIND_LIST=0,1,0,1",
			NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", rank, "1", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_RANK);
	EXPECT_SHARE(&d, 0, 1);
	/* Round-robin over the two packages: 1 and 3 on package 1. */
	EXPECT(decide("auto", ldom, "4-7,12-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_OBJECTS && d.objects == 2);
	EXPECT_SHARE(&d, 1, 2);
	EXPECT(decide("auto", map, "0-3,8-11", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_LIST);
	EXPECT_SHARE(&d, 1, 2);
}

/* Planning for another machine: a task's mask is its list entry. */
TEST(slurm_mask_from_list_elsewhere)
{
	char *env[] = { "SLURM_STEP_ID=0",
			"SLURM_LOCALID=1",
			"SLURM_STEP_TASKS_PER_NODE=2",
			"SLURM_CPU_BIND_TYPE=mask_cpu:",
			"SLURM_CPU_BIND_LIST=0x0f0f,0xf0f0",
			NULL };
	char *map[] = { "SLURM_STEP_ID=0",
			"SLURM_LOCALID=1",
			"SLURM_STEP_TASKS_PER_NODE=2",
			"SLURM_CPU_BIND_TYPE=map_cpu:",
			"SLURM_CPU_BIND_LIST=3,0xc",
			NULL };
	char *outside[] = { "SLURM_STEP_ID=0",
			    "SLURM_LOCALID=1",
			    "SLURM_STEP_TASKS_PER_NODE=2",
			    "SLURM_CPU_BIND_TYPE=mask_cpu:",
			    "SLURM_CPU_BIND_LIST=0x1,0x10000",
			    NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", env, "", &d, &e) == LAUNCHER_OK);
	EXPECT(d.mask_from_list);
	EXPECT_SET(&d.mask, "4-7,12-15");
	EXPECT_SHARE(&d, 0, 1);
	EXPECT(decide("auto", map, "", &d, &e) == LAUNCHER_OK);
	EXPECT_SET(&d.mask, "12");
	EXPECT(decide("auto", outside, "", &d, &e) == LAUNCHER_E_BAD_VALUE);
	EXPECT(e.why == LAUNCHER_WHY_NOT_HERE);
	/* On this machine the mask is the affinity, whatever the list. */
	EXPECT(decide("auto", env, "0-1", &d, &e) == LAUNCHER_OK);
	EXPECT(!d.mask_from_list);
	EXPECT_SET(&d.mask, "0-1");
}

TEST(slurm_bad_values)
{
	struct {
		const char *vars[6];
		enum launcher_err code;
		enum launcher_why why;
		const char *var;
	} cases[] = {
		/* Once 2 tasks, by a wrapped 32-bit number. */
		{ { "SLURM_STEP_TASKS_PER_NODE=4294967298" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_TOO_LARGE,
		  "SLURM_STEP_TASKS_PER_NODE" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2(x" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_TASKS,
		  "SLURM_STEP_TASKS_PER_NODE" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2(x0)" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_TASKS,
		  "SLURM_STEP_TASKS_PER_NODE" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2," },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_TASKS,
		  "SLURM_STEP_TASKS_PER_NODE" },
		{ { "SLURM_STEP_TASKS_PER_NODE=" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_TASKS,
		  "SLURM_STEP_TASKS_PER_NODE" },
		{ { "SLURM_STEP_TASKS_PER_NODE=1(x4294967295),1" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_TOO_LARGE,
		  "SLURM_STEP_TASKS_PER_NODE" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2", "SLURM_LOCALID=2" },
		  LAUNCHER_E_BEYOND,
		  0,
		  "SLURM_LOCALID" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2(x2)" },
		  LAUNCHER_E_MISSING,
		  0,
		  "SLURM_STEP_TASKS_PER_NODE" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2(x2)", "SLURM_NODEID=2" },
		  LAUNCHER_E_BEYOND,
		  0,
		  "SLURM_NODEID" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2", "SLURM_NODEID=x" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_NUMBER,
		  "SLURM_NODEID" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2", "SLURM_LOCALID=-1" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_NUMBER,
		  "SLURM_LOCALID" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2",
		    "SLURM_CPU_BIND_TYPE=cores,bogus" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_BIND_TYPE,
		  "SLURM_CPU_BIND_TYPE" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2",
		    "SLURM_CPU_BIND_TYPE=mask_cpu:" },
		  LAUNCHER_E_MISSING,
		  0,
		  "SLURM_CPU_BIND_TYPE" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2",
		    "SLURM_CPU_BIND_TYPE=mask_cpu:",
		    "SLURM_CPU_BIND_LIST=0x1,0xg" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_BIND_ENTRY,
		  "SLURM_CPU_BIND_LIST" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2",
		    "SLURM_CPU_BIND_TYPE=mask_cpu:",
		    "SLURM_CPU_BIND_LIST=0x1,0x0" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_BIND_ENTRY,
		  "SLURM_CPU_BIND_LIST" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2",
		    "SLURM_CPU_BIND_TYPE=mask_cpu:",
		    "SLURM_CPU_BIND_LIST=0x1," },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_BIND_ENTRY,
		  "SLURM_CPU_BIND_LIST" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2",
		    "SLURM_CPU_BIND_TYPE=mask_cpu:",
		    "SLURM_CPU_BIND_LIST=0x1*4294967296" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_TOO_LARGE,
		  "SLURM_CPU_BIND_LIST" },
		{ { "SLURM_STEP_TASKS_PER_NODE=2",
		    "SLURM_CPU_BIND_TYPE=map_cpu:",
		    "SLURM_CPU_BIND_LIST=1,8192" },
		  LAUNCHER_E_BAD_VALUE,
		  LAUNCHER_WHY_BIND_ENTRY,
		  "SLURM_CPU_BIND_LIST" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *env[12] = { "SLURM_STEP_ID=0" };
		size_t n = 1;
		struct launcher_decision d;
		struct launcher_error e;

		for (size_t k = 0; k < 6 && cases[i].vars[k]; k++)
			env[n++] = (char *)cases[i].vars[k];
		/* Defaults after the case's own: env_get takes the first. */
		env[n++] = "SLURM_LOCALID=0";
		env[n] = NULL;
		if (decide("auto", env, "0-15", &d, &e) != cases[i].code) {
			check_current_failed = 1;
			printf("# case %zu: got error %d, want %d\n", i,
			       (int)e.code, (int)cases[i].code);
			continue;
		}
		EXPECT(!strcmp(e.var, cases[i].var));
		if (cases[i].code == LAUNCHER_E_BAD_VALUE &&
		    e.why != cases[i].why) {
			check_current_failed = 1;
			printf("# case %zu: why %d, want %d\n", i, (int)e.why,
			       (int)cases[i].why);
		}
	}
}

TEST(slurm_missing)
{
	char *no_localid[] = { "SLURM_STEP_ID=0", "SLURM_STEP_TASKS_PER_NODE=2",
			       NULL };
	char *no_count[] = { "SLURM_STEPID=0", "SLURM_LOCALID=0", NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", no_localid, "0-15", &d, &e) ==
	       LAUNCHER_E_MISSING);
	EXPECT(!strcmp(e.var, "SLURM_STEP_ID") &&
	       !strcmp(e.var2, "SLURM_LOCALID"));
	EXPECT(decide("auto", no_count, "0-15", &d, &e) == LAUNCHER_E_MISSING);
	EXPECT(!strcmp(e.var, "SLURM_LOCALID") &&
	       !strcmp(e.var2, "SLURM_STEP_TASKS_PER_NODE"));
}

/* mpirun -n 2: bound to a core each (Open MPI's default up to 2). */
TEST(openmpi_core_binding_is_each_ranks_own)
{
	char *env[] = { "OMPI_COMM_WORLD_LOCAL_RANK=1",
			"OMPI_COMM_WORLD_LOCAL_SIZE=2",
			"OMPI_MCA_orte_bound_at_launch=1", NULL };
	char *over[] = {
		"OMPI_COMM_WORLD_LOCAL_RANK=10",
		"OMPI_COMM_WORLD_LOCAL_SIZE=12",
		"OMPI_MCA_orte_bound_at_launch=1",
		"OMPI_MCA_hwloc_base_binding_policy=core:overload-allowed", NULL
	};
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", env, "1,9", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_OPENMPI &&
	       d.binding == LAUNCHER_BINDING_OBJECTS);
	EXPECT(d.objects == 8);
	EXPECT_SHARE(&d, 0, 1);
	/* 12 ranks on 8 cores: 2 and 10 share core 2. */
	EXPECT(decide("auto", over, "2,10", &d, &e) == LAUNCHER_OK);
	EXPECT_SHARE(&d, 1, 2);
}

/* mpirun -n 4 (or --bind-to socket): ranks round-robin over the
 * packages, 1 and 3 on package 1. */
TEST(openmpi_socket_binding_is_shared)
{
	char *env[] = { "OMPI_COMM_WORLD_LOCAL_RANK=3",
			"OMPI_COMM_WORLD_LOCAL_SIZE=4",
			"OMPI_MCA_orte_bound_at_launch=1", NULL };
	char *odd[] = { "OMPI_COMM_WORLD_LOCAL_RANK=2",
			"OMPI_COMM_WORLD_LOCAL_SIZE=5",
			"OMPI_MCA_orte_bound_at_launch=1", NULL };
	char *moved[] = { "OMPI_COMM_WORLD_LOCAL_RANK=0",
			  "OMPI_COMM_WORLD_LOCAL_SIZE=4",
			  "OMPI_MCA_orte_bound_at_launch=1", NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", env, "4-7,12-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_OBJECTS && d.objects == 2);
	EXPECT_SHARE(&d, 1, 2);
	/* Five ranks: 0, 2 and 4 on package 0. */
	EXPECT(decide("auto", odd, "0-3,8-11", &d, &e) == LAUNCHER_OK);
	EXPECT_SHARE(&d, 1, 3);
	/* Rank 0 is mapped to package 0: found on package 1, it was moved
	 * (taskset in the command line) and keeps its mask. */
	EXPECT(decide("auto", moved, "4-7,12-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_MOVED);
	EXPECT_SHARE(&d, 0, 1);
}

/* --map-by core --bind-to socket: ranks on cores 0, 1, 2, ... in order,
 * each bound to its core's package: four ranks all on package 0. */
TEST(openmpi_map_by_core_fills_cores)
{
	char *env[] = { "OMPI_COMM_WORLD_LOCAL_RANK=2",
			"OMPI_COMM_WORLD_LOCAL_SIZE=4",
			"OMPI_MCA_orte_bound_at_launch=1",
			"OMPI_MCA_hwloc_base_binding_policy=socket",
			"OMPI_MCA_rmaps_base_mapping_policy=core",
			NULL };
	char *threads[] = { "OMPI_COMM_WORLD_LOCAL_RANK=9",
			    "OMPI_COMM_WORLD_LOCAL_SIZE=12",
			    "OMPI_MCA_orte_bound_at_launch=1",
			    "OMPI_MCA_hwloc_base_binding_policy=socket",
			    "OMPI_MCA_rmaps_base_mapping_policy=hwthread",
			    NULL };
	char *pe[] = { "OMPI_COMM_WORLD_LOCAL_RANK=1",
		       "OMPI_COMM_WORLD_LOCAL_SIZE=2",
		       "OMPI_MCA_orte_bound_at_launch=1",
		       "OMPI_MCA_rmaps_base_mapping_policy=slot:PE=4", NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", env, "0-3,8-11", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_UNITS);
	EXPECT_SHARE(&d, 2, 4);
	/* Rank 2 is mapped to core 2, in package 0: on package 1 it was
	 * moved. */
	EXPECT(decide("auto", env, "4-7,12-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_MOVED);
	EXPECT_SHARE(&d, 0, 1);
	/* By PU, in topology order: ranks 0-7 on package 0's eight PUs,
	 * 8-11 on package 1, where 9 is the second. */
	EXPECT(decide("auto", threads, "4-7,12-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_UNITS);
	EXPECT_SHARE(&d, 1, 4);
	EXPECT(decide("auto", pe, "4-7,12-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_OWN);
	EXPECT_SHARE(&d, 0, 1);
}

TEST(openmpi_unbound)
{
	char *none[] = { "OMPI_COMM_WORLD_LOCAL_RANK=2",
			 "OMPI_COMM_WORLD_LOCAL_SIZE=3",
			 "OMPI_MCA_hwloc_base_binding_policy=none", NULL };
	/* Under srun: Slurm's variables too, which MPI's override. */
	char *srun[] = { "OMPI_COMM_WORLD_LOCAL_RANK=1",
			 "OMPI_COMM_WORLD_LOCAL_SIZE=2",
			 "SLURM_STEP_ID=0",
			 "SLURM_LOCALID=0",
			 "SLURM_STEP_TASKS_PER_NODE=1",
			 "SLURM_CPU_BIND_TYPE=mask_cpu:",
			 "SLURM_CPU_BIND_LIST=0xffff",
			 NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", none, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_NONE);
	EXPECT_SHARE(&d, 2, 3);
	EXPECT(decide("auto", srun, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_OPENMPI &&
	       d.binding == LAUNCHER_BINDING_NONE);
	EXPECT_SHARE(&d, 1, 2);
}

TEST(hydra)
{
	char *plain[] = { "MPI_LOCALRANKID=1", "MPI_LOCALNRANKS=2",
			  "PMI_RANK=1", "PMI_SIZE=2", NULL };
	char *socket[] = { "MPI_LOCALRANKID=2", "MPI_LOCALNRANKS=4",
			   "HYDRA_USER_PROVIDED_BINDING=1", NULL };
	/* Inside a Slurm job Hydra's proxy is a step's task: SLURM_LOCALID=0
	 * of one task, for every rank. */
	char *slurm[] = { "MPI_LOCALRANKID=1",
			  "MPI_LOCALNRANKS=2",
			  "SLURM_STEP_ID=2",
			  "SLURM_LOCALID=0",
			  "SLURM_STEP_TASKS_PER_NODE=1",
			  "SLURM_CPU_BIND_TYPE=mask_cpu:",
			  "SLURM_CPU_BIND_LIST=0x3",
			  NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", plain, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_HYDRA && d.binding == LAUNCHER_BINDING_NONE);
	EXPECT_SHARE(&d, 1, 2);
	EXPECT(decide("auto", socket, "0-3,8-11", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_OBJECTS);
	EXPECT_SHARE(&d, 1, 2);
	/* -bind-to core:2 (two cores, no object of their own). */
	EXPECT(decide("auto", socket, "0,2,8,10", &d, &e) == LAUNCHER_OK);
	EXPECT(d.binding == LAUNCHER_BINDING_OWN);
	EXPECT(decide("auto", slurm, "0-1", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_HYDRA);
	EXPECT_SHARE(&d, 1, 2);
}

/* mpirun and mpiexec.hydra in an allocation of three nodes, two tasks each
 * (tests/fixtures/launchers/nodes-sbatch-*): they start their daemons with
 * a step of one task a node, so every rank also has SLURM_LOCALID=0 of a
 * step that says one task here. The rank's own launcher wins: the second
 * rank of a node takes part 2 of 2, not all of a node it shares. */
TEST(mpi_in_a_step_of_one_task_a_node)
{
	char *openmpi[] = { "OMPI_COMM_WORLD_LOCAL_RANK=1",
			    "OMPI_COMM_WORLD_LOCAL_SIZE=2",
			    "OMPI_COMM_WORLD_RANK=3",
			    "OMPI_MCA_hwloc_base_binding_policy=none",
			    "SLURM_CPU_BIND_LIST=",
			    "SLURM_CPU_BIND_TYPE=none",
			    "SLURM_JOB_ID=1",
			    "SLURM_LOCALID=0",
			    "SLURM_NODEID=0",
			    "SLURM_NTASKS_PER_NODE=1",
			    "SLURM_STEP_ID=0",
			    "SLURM_STEP_TASKS_PER_NODE=1(x2)",
			    "SLURM_TASKS_PER_NODE=1(x2)",
			    NULL };
	char *hydra[] = { "MPI_LOCALNRANKS=2",
			  "MPI_LOCALRANKID=1",
			  "PMI_RANK=5",
			  "SLURM_CPU_BIND_LIST=0xffff",
			  "SLURM_CPU_BIND_TYPE=mask_cpu:",
			  "SLURM_JOB_ID=1",
			  "SLURM_LOCALID=0",
			  "SLURM_NODEID=2",
			  "SLURM_NTASKS_PER_NODE=2",
			  "SLURM_STEP_ID=0",
			  "SLURM_STEP_TASKS_PER_NODE=1(x3)",
			  "SLURM_TASKS_PER_NODE=1(x3)",
			  NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", openmpi, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_OPENMPI &&
	       d.binding == LAUNCHER_BINDING_NONE);
	EXPECT(d.rank == 1 && d.ranks == 2);
	EXPECT_SHARE(&d, 1, 2);
	EXPECT(decide("auto", hydra, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_HYDRA && d.binding == LAUNCHER_BINDING_NONE);
	EXPECT(d.rank == 1 && d.ranks == 2);
	EXPECT_SHARE(&d, 1, 2);
}

TEST(mpi_bad_values)
{
	char *no_size[] = { "OMPI_COMM_WORLD_LOCAL_RANK=0", NULL };
	char *rank_big[] = { "MPI_LOCALRANKID=2", "MPI_LOCALNRANKS=2", NULL };
	char *zero[] = { "MPI_LOCALRANKID=0", "MPI_LOCALNRANKS=0", NULL };
	char *flag[] = { "OMPI_COMM_WORLD_LOCAL_RANK=0",
			 "OMPI_COMM_WORLD_LOCAL_SIZE=2",
			 "OMPI_MCA_orte_bound_at_launch=yes", NULL };
	char *huge[] = { "OMPI_COMM_WORLD_LOCAL_RANK=0",
			 "OMPI_COMM_WORLD_LOCAL_SIZE=99999999999", NULL };
	struct launcher_decision d;
	struct launcher_error e;

	EXPECT(decide("auto", no_size, "0-15", &d, &e) == LAUNCHER_E_MISSING);
	EXPECT(!strcmp(e.var2, "OMPI_COMM_WORLD_LOCAL_SIZE"));
	EXPECT(decide("auto", rank_big, "0-15", &d, &e) == LAUNCHER_E_BEYOND);
	EXPECT(!strcmp(e.var, "MPI_LOCALRANKID") && e.number == 2 &&
	       e.number2 == 2);
	EXPECT(decide("auto", zero, "0-15", &d, &e) == LAUNCHER_E_BAD_VALUE);
	EXPECT(e.why == LAUNCHER_WHY_ZERO && !strcmp(e.var, "MPI_LOCALNRANKS"));
	EXPECT(decide("auto", flag, "0-15", &d, &e) == LAUNCHER_E_BAD_VALUE);
	EXPECT(e.why == LAUNCHER_WHY_FLAG);
	EXPECT(decide("auto", huge, "0-15", &d, &e) == LAUNCHER_E_BAD_VALUE);
	EXPECT(e.why == LAUNCHER_WHY_TOO_LARGE);
}

TEST(parallel_and_none)
{
	char *slot[] = { "PARALLEL_JOBSLOT=7", "SLURM_JOB_ID=3", NULL };
	char *zero[] = { "PARALLEL_JOBSLOT=0", NULL };
	char *nothing[] = { "PATH=/bin", NULL };
	struct launcher_decision d;
	struct launcher_error e;

	/* auto/N is GNU parallel's, inside a batch script too. */
	EXPECT(decide("auto/4", slot, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_PARALLEL);
	EXPECT_SHARE(&d, 2, 4);
	/* auto is not: there the batch script is alone. */
	EXPECT(decide("auto", slot, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_SLURM_JOB);
	EXPECT(decide("auto/4", zero, "0-15", &d, &e) == LAUNCHER_E_BAD_VALUE);
	EXPECT(e.why == LAUNCHER_WHY_ZERO);
	EXPECT(decide("auto/4", nothing, "0-15", &d, &e) == LAUNCHER_E_NO_SLOT);
	EXPECT(decide("auto", nothing, "0-15", &d, &e) == LAUNCHER_E_NONE);
	EXPECT(decide("2/3", nothing, "0-15", &d, &e) == LAUNCHER_OK);
	EXPECT(d.kind == LAUNCHER_GIVEN);
	EXPECT_SHARE(&d, 1, 3);
}

TEST(given_too_many_is_an_error)
{
	struct topology *t = machine();
	struct launcher_spec s = spec("1/9");
	struct launcher_decision d;
	struct launcher_error e;
	struct cpuset part;
	char *env[] = { NULL };

	if (launcher_decide(&s, env, t, NULL, &d, &e) < 0) {
		EXPECT(!"decided");
		tree_free(t);
		return;
	}
	EXPECT(launcher_part(t, &d, &d.mask, false, &part, &e) < 0);
	EXPECT(e.code == LAUNCHER_E_TOO_MANY && e.number == 1 &&
	       e.number2 == 9 && e.units == 8);
	/* As PUs there are 16: the first of nine parts is core 0's first. */
	EXPECT(launcher_part(t, &d, &d.mask, true, &part, &e) == 0);
	EXPECT_SET(&part, "0");
	tree_free(t);
}

int main(void)
{
	RUN(parse_forms);
	RUN(parse_errors);
	RUN(slurm_default_binding_is_each_tasks_own);
	RUN(slurm_equal_entries_share);
	RUN(slurm_list_repeats);
	RUN(slurm_overcommit_wraps);
	RUN(slurm_unbound_tasks_split);
	RUN(slurm_step_count_before_the_jobs);
	RUN(slurm_job_is_alone);
	RUN(slurm_rank_and_ldom_types);
	RUN(slurm_mask_from_list_elsewhere);
	RUN(slurm_bad_values);
	RUN(slurm_missing);
	RUN(openmpi_core_binding_is_each_ranks_own);
	RUN(openmpi_socket_binding_is_shared);
	RUN(openmpi_map_by_core_fills_cores);
	RUN(openmpi_unbound);
	RUN(hydra);
	RUN(mpi_in_a_step_of_one_task_a_node);
	RUN(mpi_bad_values);
	RUN(parallel_and_none);
	RUN(given_too_many_is_an_error);
	return DONE();
}
