"""The exercises' checkers, one module per exercise or chapter; ``d2lgpu.grading`` finds them in its table.

A checker tests the *behaviour* of an answer (what it synchronized, what it
transferred, where its tensors live, whether its results agree with a
reference), on any machine: where the lesson needs a GPU, the checker uses a
stand-in that behaves like one in the respect being checked (a simulated
asynchronous device, fake GPU counts, a pretend GPU that records where tensors
are made, the ``meta`` device, a checkpoint that claims to come from a GPU this
machine lacks, a scripted GPU profile). The list of checks that passed never
contains hardware-dependent numbers, so a solution notebook's ``PASS`` report
is the same on a laptop and on a GPU server.

=========================  ==============================================================
``ch01_devices``           ``01.placement``
``ch02_time_fn``           ``02.time_fn`` (a simulated asynchronous device)
``ch02_frobenius``         ``02.frobenius``
``ch02_concurrency``       ``02.concurrency``
``ch03_parameters``        ``03.parameters``
``ch03_device_bug``        ``03.device_bug``
``ch04_amp``               ``04.amp``
``ch05_ddp``               ``05.ddp`` (launches the learner's script with torchrun)
``ch06_performance``       ``06.slowest_op``
``ch07_triton``            ``07.relu_mul``, ``07.rms_norm`` (Triton, through its interpreter)
``ch08_streams``           ``08.overlap`` (on a simulated GPU)
``ch08_copy_back``         ``08.copy_back`` (on a simulated GPU: results copied back too)
``ch09_model_parallel``    ``09.pipeline``
``ch09_checkpointing``     ``09.checkpoint``
``ch09_one_f_one_b``       ``09.one_f_one_b``
``ch09_tensor_parallel``   ``09.tensor_parallel``
``ch10_inside_ddp``        ``10.bus_bandwidth``, ``10.allreduce_grads`` (two gloo ranks)
``ch10_ddp_by_hand``       ``10.overlap_ddp`` (hooks, buckets), ``10.shard_optimizer`` (ZeRO-1)
``ch11_planning``          ``11.memory`` (the fake process group and memory tracker)
``ch11_plan``              ``11.plan`` (a plan measured per rank, timed against the best one)
=========================  ==============================================================

The modules whose names start with ``_`` are not checkers but what checkers share:

=========================  ==============================================================
``_ch01_calls``            ``01.placement``'s watch of GPUs touched, and of one list refilled
``_ch02_time_log``         ``02.time_fn``'s rules on the order of its calls: warm-up, clock, sync
``_ch02_time_cuda``        ``02.time_fn`` where torch sees a GPU: the given sync, not torch.cuda's
``_ch02_clock``            ``02.frobenius``'s product clock: work, norms, joins, matrices alive
``_ch02_futures``          ``02.concurrency``'s futures, logged or late: ``result()`` alone
``_ch03_networks``         what both chapter 3 checkers share: the model
``_ch03_meta_watch``       ``03.device_bug``'s watch of where each tensor came from
``_ch03_step_rules``       ``03.device_bug``'s reference, and what a step must leave alone
``_ch03_loading``          ``03.parameters``' loads of a checkpoint, and their hints
``_ch03_halving``          ``03.parameters``' halving of a weight in place, and its hints
``_ch04_watch``            ``04.amp``'s problem and probes
``_ch04_scaler``           ``04.amp``'s GradScaler rules (refusals named), partial clips, what a call keeps
``_ch04_returned``         ``04.amp``'s reading of the losses returned
``_ch05_launch``           ``05.ddp``'s launch of the learner's script, and what a failure says
``_ch05_reference``        ``05.ddp``'s single-process reference, and the mistakes made apart
``_ch05_rules``            ``05.ddp``'s rules on what the ranks recorded (saves, the end, backend, shares)
``_ch06_workloads``        ``06.slowest_op``'s workloads
``_ch06_reads``            what ``06.slowest_op``'s answer read of its profile, and the hints it explains
``_ch06_calls``            how ``06.slowest_op``'s answer called fn, waited, and what else it profiled
``_gpu_profile``           ``06.slowest_op`` on a real GPU, or a scripted one
``_ch07_interpreter``      chapter 7's watched Triton interpreter
``_ch07_answers``          what both chapter 7 checkers do with an answer
``_ch07_diagnoses``        what a wrong result of chapter 7 equals, as a hint
``_ch07_passes``           chapter 7's launches per call and torch's passes over memory
``_stream_gpu``            ``08.overlap`` on a real GPU
``_ch08_hazards``          ``08.overlap``'s races, named for what caused them
``_ch08_rules``            chapter 8's shared rules: caller's stream, copies, pins, device
``_ch08_results``          ``08.overlap``'s checks of what ``pipelined`` returned
``_ch08_copy_run``         ``08.copy_back``'s simulated run: what the answer did there
``_ch08_copy_races``       ``08.copy_back``'s races and early reads, named for what caused them
``_ch08_copy_consume``     ``08.copy_back``'s checks of what ``consume`` got
``_ch09_stages``           ``09.pipeline``'s stages and devices, which tensor was misplaced, copies and autocast
``_ch09_grads``            ``09.pipeline``'s reference, and what a wrong loss or gradient says
``_ch09_pipeline_rules``   ``09.pipeline``'s rules on its schedule, stage 1's input, host reads
``_ch09_given_grads``      chapter 9's caller's gradients: kept till the first forward, not scaled
``_ch09_1f1b_log``        ``09.one_f_one_b``'s logged stages: forwards, backwards, cut inputs, what stays saved
``_ch09_1f1b_orders``      ``09.one_f_one_b``'s words on a stage's order, against 1F1B's
``_ch09_ckpt_log``         ``09.checkpoint``'s logged blocks: segments recomputed, the peak in backward
``_ch09_ckpt_rules``       ``09.checkpoint``'s rules beside the segments: hooks, input, random state, gc
``_copy_back_gpu``         ``08.copy_back`` on a real GPU
``_ch09_tp_problem``       ``09.tensor_parallel``'s problem and what each rank runs
``_ch09_tp_hints``         ``09.tensor_parallel``'s hints on the storage a rank keeps, and on gradients
``_ch09_tp_given``         ``09.tensor_parallel``'s caller's mlp: left as given, and let go of
``_ch10_between_calls``   ``10.allreduce_grads``: what a call keeps for the next, a layer used late
``_ch10_bandwidth_edges`` ``10.bus_bandwidth``'s checker: one rank, a misleading ``WORLD_SIZE``
``_ch11_kept``             ``11.memory``'s hint for a result kept between calls
``_ch10_overlap``          ``10.overlap_ddp``'s rank job and reference
``_ch10_overlap_rules``    ``10.overlap_ddp``'s rules on its ranks' records, read in the parent
``_ch10_buckets``          ``10.overlap_ddp``'s models and bucket rules
``_ch10_zero``             ``10.shard_optimizer``'s rank job, reference and comparison with DDP
``_ch10_zero_rules``       ``10.shard_optimizer``'s other rules on the ranks' records
``_ch10_zero_kept``        ``10.shard_optimizer``'s look at what a rank keeps outside its optimizers
``_ch10_refused``          chapter 10's refusals in its ranks: PyTorch's ZeRO-1, objects sent, clips
``_ch10_by_hand``          what both ``10.`` hand-built DDP checkers share: steps, batches
``_ranks``                 the gloo ranks of chapters 9 and 10's checkers: jobs and replies
``_ranks_hints``          what their replies say, read in the parent: the root cause's hint
``_util``, ``_guard``      what all checkers share: ``CheckFailed``, the time limit
``_kit``                   the checker kit: known errors as hints, tolerances, findings, watched calls
``_kit_code``              the kit's watch on functions an answer must not use, by their code
``_kit_seeds``             the kit's watch on torch's global generators: a reseed left in place
``_kit_process``           the other process-wide settings an answer leaves, torch's functions replaced
``_kit_interpreter``       the interpreter's own settings: the garbage collector, thread switches
``_pretend``               ``watching``: the pretend GPU of ``d2lgpu._device_watch`` in force
=========================  ==============================================================

Checkers import nothing from ``d2lgpu.grading``; importing this package
imports none of the chapter modules.

What it is not: a test suite for the course itself (that is ``tests/``).
"""

__all__: list[str] = []
