include $(sort $(wildcard $(BR2_EXTERNAL_PROBECC_PATH)/package/*/*.mk))
