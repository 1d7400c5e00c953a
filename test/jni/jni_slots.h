/*
 * jni_slots.h - the names of every function slot of struct
 * JNINativeInterface_ (the JNIEnv table), as an X-macro list: expanded once
 * to make a trap function per slot (fake_traps.c) and once to install them.
 * Listed from the JNI specification's function table; slots a newer jni.h
 * adds are guarded by the version macro that header introduces with them,
 * and fake_traps.c checks at compile time that the list covers the whole
 * struct of the jni.h in use, so a JDK with more slots fails to build
 * rather than leave one unset.
 */
#ifndef JNI_HARNESS_SLOTS_H
#define JNI_HARNESS_SLOTS_H

#include <jni.h>

#define JNI_SLOTS_1_6 \
    JNI_SLOT(GetVersion) JNI_SLOT(DefineClass) JNI_SLOT(FindClass) \
    JNI_SLOT(FromReflectedMethod) JNI_SLOT(FromReflectedField) JNI_SLOT(ToReflectedMethod) \
    JNI_SLOT(GetSuperclass) JNI_SLOT(IsAssignableFrom) JNI_SLOT(ToReflectedField) \
    JNI_SLOT(Throw) JNI_SLOT(ThrowNew) JNI_SLOT(ExceptionOccurred) \
    JNI_SLOT(ExceptionDescribe) JNI_SLOT(ExceptionClear) JNI_SLOT(FatalError) \
    JNI_SLOT(PushLocalFrame) JNI_SLOT(PopLocalFrame) JNI_SLOT(NewGlobalRef) \
    JNI_SLOT(DeleteGlobalRef) JNI_SLOT(DeleteLocalRef) JNI_SLOT(IsSameObject) \
    JNI_SLOT(NewLocalRef) JNI_SLOT(EnsureLocalCapacity) JNI_SLOT(AllocObject) \
    JNI_SLOT(NewObject) JNI_SLOT(NewObjectV) JNI_SLOT(NewObjectA) \
    JNI_SLOT(GetObjectClass) JNI_SLOT(IsInstanceOf) JNI_SLOT(GetMethodID) \
    JNI_SLOT(CallObjectMethod) JNI_SLOT(CallObjectMethodV) JNI_SLOT(CallObjectMethodA) \
    JNI_SLOT(CallBooleanMethod) JNI_SLOT(CallBooleanMethodV) JNI_SLOT(CallBooleanMethodA) \
    JNI_SLOT(CallByteMethod) JNI_SLOT(CallByteMethodV) JNI_SLOT(CallByteMethodA) \
    JNI_SLOT(CallCharMethod) JNI_SLOT(CallCharMethodV) JNI_SLOT(CallCharMethodA) \
    JNI_SLOT(CallShortMethod) JNI_SLOT(CallShortMethodV) JNI_SLOT(CallShortMethodA) \
    JNI_SLOT(CallIntMethod) JNI_SLOT(CallIntMethodV) JNI_SLOT(CallIntMethodA) \
    JNI_SLOT(CallLongMethod) JNI_SLOT(CallLongMethodV) JNI_SLOT(CallLongMethodA) \
    JNI_SLOT(CallFloatMethod) JNI_SLOT(CallFloatMethodV) JNI_SLOT(CallFloatMethodA) \
    JNI_SLOT(CallDoubleMethod) JNI_SLOT(CallDoubleMethodV) JNI_SLOT(CallDoubleMethodA) \
    JNI_SLOT(CallVoidMethod) JNI_SLOT(CallVoidMethodV) JNI_SLOT(CallVoidMethodA) \
    JNI_SLOT(CallNonvirtualObjectMethod) JNI_SLOT(CallNonvirtualObjectMethodV) JNI_SLOT(CallNonvirtualObjectMethodA) \
    JNI_SLOT(CallNonvirtualBooleanMethod) JNI_SLOT(CallNonvirtualBooleanMethodV) JNI_SLOT(CallNonvirtualBooleanMethodA) \
    JNI_SLOT(CallNonvirtualByteMethod) JNI_SLOT(CallNonvirtualByteMethodV) JNI_SLOT(CallNonvirtualByteMethodA) \
    JNI_SLOT(CallNonvirtualCharMethod) JNI_SLOT(CallNonvirtualCharMethodV) JNI_SLOT(CallNonvirtualCharMethodA) \
    JNI_SLOT(CallNonvirtualShortMethod) JNI_SLOT(CallNonvirtualShortMethodV) JNI_SLOT(CallNonvirtualShortMethodA) \
    JNI_SLOT(CallNonvirtualIntMethod) JNI_SLOT(CallNonvirtualIntMethodV) JNI_SLOT(CallNonvirtualIntMethodA) \
    JNI_SLOT(CallNonvirtualLongMethod) JNI_SLOT(CallNonvirtualLongMethodV) JNI_SLOT(CallNonvirtualLongMethodA) \
    JNI_SLOT(CallNonvirtualFloatMethod) JNI_SLOT(CallNonvirtualFloatMethodV) JNI_SLOT(CallNonvirtualFloatMethodA) \
    JNI_SLOT(CallNonvirtualDoubleMethod) JNI_SLOT(CallNonvirtualDoubleMethodV) JNI_SLOT(CallNonvirtualDoubleMethodA) \
    JNI_SLOT(CallNonvirtualVoidMethod) JNI_SLOT(CallNonvirtualVoidMethodV) JNI_SLOT(CallNonvirtualVoidMethodA) \
    JNI_SLOT(GetFieldID) JNI_SLOT(GetObjectField) JNI_SLOT(GetBooleanField) \
    JNI_SLOT(GetByteField) JNI_SLOT(GetCharField) JNI_SLOT(GetShortField) \
    JNI_SLOT(GetIntField) JNI_SLOT(GetLongField) JNI_SLOT(GetFloatField) \
    JNI_SLOT(GetDoubleField) JNI_SLOT(SetObjectField) JNI_SLOT(SetBooleanField) \
    JNI_SLOT(SetByteField) JNI_SLOT(SetCharField) JNI_SLOT(SetShortField) \
    JNI_SLOT(SetIntField) JNI_SLOT(SetLongField) JNI_SLOT(SetFloatField) \
    JNI_SLOT(SetDoubleField) JNI_SLOT(GetStaticMethodID) JNI_SLOT(CallStaticObjectMethod) \
    JNI_SLOT(CallStaticObjectMethodV) JNI_SLOT(CallStaticObjectMethodA) JNI_SLOT(CallStaticBooleanMethod) \
    JNI_SLOT(CallStaticBooleanMethodV) JNI_SLOT(CallStaticBooleanMethodA) JNI_SLOT(CallStaticByteMethod) \
    JNI_SLOT(CallStaticByteMethodV) JNI_SLOT(CallStaticByteMethodA) JNI_SLOT(CallStaticCharMethod) \
    JNI_SLOT(CallStaticCharMethodV) JNI_SLOT(CallStaticCharMethodA) JNI_SLOT(CallStaticShortMethod) \
    JNI_SLOT(CallStaticShortMethodV) JNI_SLOT(CallStaticShortMethodA) JNI_SLOT(CallStaticIntMethod) \
    JNI_SLOT(CallStaticIntMethodV) JNI_SLOT(CallStaticIntMethodA) JNI_SLOT(CallStaticLongMethod) \
    JNI_SLOT(CallStaticLongMethodV) JNI_SLOT(CallStaticLongMethodA) JNI_SLOT(CallStaticFloatMethod) \
    JNI_SLOT(CallStaticFloatMethodV) JNI_SLOT(CallStaticFloatMethodA) JNI_SLOT(CallStaticDoubleMethod) \
    JNI_SLOT(CallStaticDoubleMethodV) JNI_SLOT(CallStaticDoubleMethodA) JNI_SLOT(CallStaticVoidMethod) \
    JNI_SLOT(CallStaticVoidMethodV) JNI_SLOT(CallStaticVoidMethodA) JNI_SLOT(GetStaticFieldID) \
    JNI_SLOT(GetStaticObjectField) JNI_SLOT(GetStaticBooleanField) JNI_SLOT(GetStaticByteField) \
    JNI_SLOT(GetStaticCharField) JNI_SLOT(GetStaticShortField) JNI_SLOT(GetStaticIntField) \
    JNI_SLOT(GetStaticLongField) JNI_SLOT(GetStaticFloatField) JNI_SLOT(GetStaticDoubleField) \
    JNI_SLOT(SetStaticObjectField) JNI_SLOT(SetStaticBooleanField) JNI_SLOT(SetStaticByteField) \
    JNI_SLOT(SetStaticCharField) JNI_SLOT(SetStaticShortField) JNI_SLOT(SetStaticIntField) \
    JNI_SLOT(SetStaticLongField) JNI_SLOT(SetStaticFloatField) JNI_SLOT(SetStaticDoubleField) \
    JNI_SLOT(NewString) JNI_SLOT(GetStringLength) JNI_SLOT(GetStringChars) \
    JNI_SLOT(ReleaseStringChars) JNI_SLOT(NewStringUTF) JNI_SLOT(GetStringUTFLength) \
    JNI_SLOT(GetStringUTFChars) JNI_SLOT(ReleaseStringUTFChars) JNI_SLOT(GetArrayLength) \
    JNI_SLOT(NewObjectArray) JNI_SLOT(GetObjectArrayElement) JNI_SLOT(SetObjectArrayElement) \
    JNI_SLOT(NewBooleanArray) JNI_SLOT(NewByteArray) JNI_SLOT(NewCharArray) \
    JNI_SLOT(NewShortArray) JNI_SLOT(NewIntArray) JNI_SLOT(NewLongArray) \
    JNI_SLOT(NewFloatArray) JNI_SLOT(NewDoubleArray) JNI_SLOT(GetBooleanArrayElements) \
    JNI_SLOT(GetByteArrayElements) JNI_SLOT(GetCharArrayElements) JNI_SLOT(GetShortArrayElements) \
    JNI_SLOT(GetIntArrayElements) JNI_SLOT(GetLongArrayElements) JNI_SLOT(GetFloatArrayElements) \
    JNI_SLOT(GetDoubleArrayElements) JNI_SLOT(ReleaseBooleanArrayElements) JNI_SLOT(ReleaseByteArrayElements) \
    JNI_SLOT(ReleaseCharArrayElements) JNI_SLOT(ReleaseShortArrayElements) JNI_SLOT(ReleaseIntArrayElements) \
    JNI_SLOT(ReleaseLongArrayElements) JNI_SLOT(ReleaseFloatArrayElements) JNI_SLOT(ReleaseDoubleArrayElements) \
    JNI_SLOT(GetBooleanArrayRegion) JNI_SLOT(GetByteArrayRegion) JNI_SLOT(GetCharArrayRegion) \
    JNI_SLOT(GetShortArrayRegion) JNI_SLOT(GetIntArrayRegion) JNI_SLOT(GetLongArrayRegion) \
    JNI_SLOT(GetFloatArrayRegion) JNI_SLOT(GetDoubleArrayRegion) JNI_SLOT(SetBooleanArrayRegion) \
    JNI_SLOT(SetByteArrayRegion) JNI_SLOT(SetCharArrayRegion) JNI_SLOT(SetShortArrayRegion) \
    JNI_SLOT(SetIntArrayRegion) JNI_SLOT(SetLongArrayRegion) JNI_SLOT(SetFloatArrayRegion) \
    JNI_SLOT(SetDoubleArrayRegion) JNI_SLOT(RegisterNatives) JNI_SLOT(UnregisterNatives) \
    JNI_SLOT(MonitorEnter) JNI_SLOT(MonitorExit) JNI_SLOT(GetJavaVM) \
    JNI_SLOT(GetStringRegion) JNI_SLOT(GetStringUTFRegion) JNI_SLOT(GetPrimitiveArrayCritical) \
    JNI_SLOT(ReleasePrimitiveArrayCritical) JNI_SLOT(GetStringCritical) JNI_SLOT(ReleaseStringCritical) \
    JNI_SLOT(NewWeakGlobalRef) JNI_SLOT(DeleteWeakGlobalRef) JNI_SLOT(ExceptionCheck) \
    JNI_SLOT(NewDirectByteBuffer) JNI_SLOT(GetDirectBufferAddress) JNI_SLOT(GetDirectBufferCapacity) \
    JNI_SLOT(GetObjectRefType)

#ifdef JNI_VERSION_9
#define JNI_SLOTS_9 JNI_SLOT(GetModule)
#else
#define JNI_SLOTS_9
#endif

#ifdef JNI_VERSION_21
#define JNI_SLOTS_21 JNI_SLOT(IsVirtualThread)
#else
#define JNI_SLOTS_21
#endif

#ifdef JNI_VERSION_24
#define JNI_SLOTS_24 JNI_SLOT(GetStringUTFLengthAsLong)
#else
#define JNI_SLOTS_24
#endif

/* Every slot, in the table's order. */
#define JNI_SLOTS JNI_SLOTS_1_6 JNI_SLOTS_9 JNI_SLOTS_21 JNI_SLOTS_24

#endif
