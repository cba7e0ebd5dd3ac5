"""The raw-control track's world side: controller input, the ray scan and the raw session.

The harness reaches these through `world.face` (`new_raw_session` and the declarations
the track's messages and the Raw environment's spaces are built from).
"""
